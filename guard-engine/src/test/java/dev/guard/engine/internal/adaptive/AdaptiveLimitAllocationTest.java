package dev.guard.engine.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.AdaptiveConcurrencyRule;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Admitting, completing and closing windows allocate nothing: measured with the per-thread
 * allocation counter over 100,000 calls (a window closing every 100 calls), after a warm-up long
 * enough for the JIT, the least of three rounds.
 */
@Tag("process")
class AdaptiveLimitAllocationTest {

  private long now;

  private static final String[] ORIGINS = {"live", "batch", "other"};

  private void calls(AdaptiveLimit limit, int n) {
    for (int i = 0; i < n; i++) {
      int group = limit.tryAcquire(ORIGINS[i % 3]);
      if (group >= 0) {
        now++;
        limit.complete(now, 1, (i & 63) == 0, group);
      }
    }
  }

  @Test
  void acquireCompleteAndWindowClose_allocateNothing() {
    assertThat(allocatedBy(new AdaptiveLimit("R", AdaptiveConcurrencyRule.of("R"), 0))).isZero();
  }

  @Test
  void withShares_acquireCompleteAndWindowClose_allocateNothing() {
    AdaptiveConcurrencyRule rule =
        AdaptiveConcurrencyRule.of("R").withShare("live", 0.9).withShare("batch", 0.1);

    assertThat(allocatedBy(new AdaptiveLimit("R", rule, 0))).isZero();
  }

  private long allocatedBy(AdaptiveLimit limit) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    calls(limit, 500_000);
    long least = Long.MAX_VALUE;
    for (int round = 0; round < 3; round++) {
      long before = threads.getCurrentThreadAllocatedBytes();
      calls(limit, 100_000);
      least = Math.min(least, threads.getCurrentThreadAllocatedBytes() - before);
    }
    return least;
  }
}
