package dev.guard.engine.internal.pervalue;

import dev.guard.engine.internal.chain.Call;
import dev.guard.api.RefusedException;
import dev.guard.api.internal.RuleLimits;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.spi.TokenService;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Applies a resource's per-value rules in load order; the first refusal wins and gives back
 * what the earlier rules took for the call. A call without arguments, or without the argument a
 * rule reads, passes that rule.
 *
 * <p>The grant bits of an entry say which rules took something for it (bit {@code i} for rule
 * {@code i}); {@link #abandon} gives all of it back when a later slot refuses the call, and {@link
 * #exit} releases the concurrency places. Both find the values again from the entry's arguments,
 * which stay with the entry until it has exited, so nothing is allocated to remember them. A
 * paced value's wait happens here, through the engine's time source; a call interrupted while
 * waiting gives everything back, keeps its interrupt flag and is refused.
 *
 * <p>A cluster rule asks the engine's token service; what the service granted is marked in a
 * second set of bits, kept as the entry's grant object (only calls of cluster rules box it), so
 * that a give-back goes where the tokens came from. When the service cannot decide the rule is
 * decided locally, or passes when its mode does not fall back.
 */
final class PerValueSlot implements Slot {

  /** The most per-value rules per resource: one grant bit each in a {@code long}. */
  static final int MAX_RULES = RuleLimits.MAX_PER_VALUE_RULES_PER_RESOURCE;

  static {
    if (MAX_RULES > Long.SIZE) {
      throw new AssertionError("one grant bit per rule needs at most " + Long.SIZE + " rules");
    }
  }

  final CompiledPerValueRule[] rules;
  private final long releasedAtExit;
  private final SlotContext engine;

  PerValueSlot(CompiledPerValueRule[] rules, SlotContext engine) {
    this.rules = rules;
    this.engine = engine;
    long atExit = 0;
    for (int i = 0; i < rules.length; i++) {
      if (rules[i].gate.releasesAtExit()) {
        atExit |= 1L << i;
      }
    }
    this.releasedAtExit = atExit;
  }

  @Override
  public @Nullable RefusedException enter(Call entry) {
    @Nullable Object[] args = entry.args();
    if (args.length == 0) {
      return null;
    }
    int permits = entry.count();
    long granted = 0L;
    long shared = 0L;
    for (int i = 0; i < rules.length; i++) {
      CompiledPerValueRule rule = rules[i];
      int at = rule.resolve(args.length);
      Object value = at < 0 ? null : args[at];
      if (value == null) {
        continue;
      }
      if (rule.shared()) {
        TokenService service = engine.tokenService();
        Object answer = service == null ? CompiledPerValueRule.FALL_BACK
            : rule.askShared(service, at, value, permits);
        if (answer == CompiledPerValueRule.GRANTED) {
          granted |= 1L << i;
          shared |= 1L << i;
          continue;
        }
        if (answer instanceof RefusedException refused) {
          giveBack(granted, shared, args, permits);
          return refused;
        }
        if (!Objects.requireNonNull(rule.rule.cluster()).fallbackToLocal()) {
          continue;
        }
      }
      long now = rule.gate.precise() ? engine.preciseNowNanos() : entry.nowNanos();
      long admitted = rule.admit(value, permits, now);
      if (admitted < 0) {
        giveBack(granted, shared, args, permits);
        return rule.refusal(at, value, admitted, permits, now);
      }
      granted |= 1L << i;
      if (admitted > 0) {
        try {
          engine.sleep(admitted);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          giveBack(granted, shared, args, permits);
          return rule.refusal(at, value, ValueGate.REFUSED, permits, now);
        }
        entry.waited(admitted);
      }
    }
    if (granted != 0L) {
      entry.keepGrantBits(granted);
    }
    if (shared != 0L) {
      entry.keepGrant(shared);
    }
    return null;
  }

  @Override
  public void abandon(Call entry) {
    giveBack(entry.grantBits(), sharedBits(entry), entry.args(), entry.count());
  }

  @Override
  public void exit(Call entry) {
    long held = entry.grantBits() & releasedAtExit;
    if (held != 0L) {
      giveBack(held, 0L, entry.args(), entry.count());
    }
  }

  private static long sharedBits(Call entry) {
    return entry.grant() instanceof Long bits ? bits : 0L;
  }

  private void giveBack(long granted, long shared, @Nullable Object[] args, int permits) {
    for (int i = 0; granted != 0L && i < rules.length; i++) {
      if ((granted & (1L << i)) != 0L) {
        granted &= ~(1L << i);
        CompiledPerValueRule rule = rules[i];
        int at = rule.resolve(args.length);
        Object value = at < 0 ? null : args[at];
        if (value == null) {
          continue;
        }
        TokenService service = (shared & (1L << i)) != 0L ? engine.tokenService() : null;
        if (service != null) {
          rule.giveBackShared(service, value, permits);
        } else {
          rule.giveBack(value, permits);
        }
      }
    }
  }
}
