package dev.guard.engine.internal.system;

import dev.guard.api.rule.Rule;
import dev.guard.api.rule.SystemRule;
import dev.guard.spi.SystemStatus;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The engine-wide state of system protection, one per engine: the system rules loaded, their
 * merged rule (null while no rule sets a threshold, which switches protection off), the status
 * source, and the count of inbound calls running under a concurrency limit.
 *
 * <p>The count is a reservation: a call is admitted under {@code maxConcurrency = N} only by
 * raising the count from below N with a compare-and-set, and the count is lowered when the call
 * exits or a later protection refuses it. So at most N such calls run at once even when many
 * threads decide at the same moment. (Deciding from the inbound concurrency gauge alone, which
 * counts a call only after every protection admitted it, lets racing threads overshoot.)
 *
 * <p>Rules change under the resource registry's lock, which then recompiles every chain; the
 * call path reads nothing here but the status source and the count.
 */
public final class SystemProtection {

  private final SystemStatus status;
  private final AtomicLong admitted = new AtomicLong();
  private volatile List<SystemRule> rules = List.of();
  private volatile @Nullable SystemRule merged;

  /**
   * Creates the state of an engine without system rules.
   *
   * @param status where CPU usage and load are read
   */
  public SystemProtection(SystemStatus status) {
    this.status = status;
  }

  /**
   * Replaces the system rules.
   *
   * @param loaded the new rules, in load order
   */
  public void load(List<SystemRule> loaded) {
    List<SystemRule> copy = List.copyOf(loaded);
    SystemRule merging = SystemRule.merge(copy);
    rules = copy;
    merged = merging.limitsAnything() ? merging : null;
  }

  /** The system rules as loaded. */
  public List<SystemRule> rules() {
    return rules;
  }

  /** The merged rule as a chain compiles it: empty while protection is off. */
  public List<Rule> chainRules() {
    SystemRule current = merged;
    return current == null ? List.of() : List.of(current);
  }

  /** Where CPU usage and load are read. */
  public SystemStatus status() {
    return status;
  }

  /** Inbound calls running under a concurrency limit. */
  long admitted() {
    return admitted.get();
  }

  /** Reserves a place for one more call if fewer than {@code max} run; false when full. */
  boolean tryAdmit(long max) {
    while (true) {
      long running = admitted.get();
      if (running >= max) {
        return false;
      }
      if (admitted.compareAndSet(running, running + 1)) {
        return true;
      }
    }
  }

  /** Gives back a place reserved by {@link #tryAdmit}. */
  void release() {
    admitted.decrementAndGet();
  }
}
