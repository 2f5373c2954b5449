package dev.guard.engine.internal.system;

import dev.guard.api.rule.SystemRule;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.chain.SlotKind;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Compiles the engine's system rules into the {@link SystemSlot} of a resource. The kind is
 * engine-wide: every resource's chain gets the slot while some system rule sets a threshold, and
 * loading system rules recompiles every chain. The slot holds the merged rule and this resource's
 * refusals; its only state (the concurrency reservations) is the engine's, so nothing needs to
 * carry over, and a slot for an unchanged merged rule is kept as it is.
 */
public final class SystemSlotKind implements SlotKind<SystemRule> {

  /** The system slot's position in the chain. */
  public static final int ORDER = -5000;

  private final SystemProtection protection;

  /**
   * Creates the kind for one engine's system protection.
   *
   * @param protection the engine's system rules, status and admitted-call count
   */
  public SystemSlotKind(SystemProtection protection) {
    this.protection = protection;
  }

  @Override
  public int order() {
    return ORDER;
  }

  @Override
  public Class<SystemRule> ruleType() {
    return SystemRule.class;
  }

  @Override
  public boolean engineWide() {
    return true;
  }

  @Override
  public Slot compile(
      String resource, List<SystemRule> rules, @Nullable Slot previous, SlotContext context) {
    SystemRule merged = SystemRule.merge(rules);
    if (previous instanceof SystemSlot && ((SystemSlot) previous).rule.equals(merged)) {
      return previous;
    }
    return new SystemSlot(resource, merged, context, protection);
  }
}
