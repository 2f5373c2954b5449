package dev.guard.testkit.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Netflix's concurrency-limits (Gradient2 and Vegas, with the bounds guard uses and their other
 * settings at their defaults) through the scenario of {@link AdaptiveSimulationTest}, side by
 * side with guard's gradient limit. The table it prints is the one in docs/BEHAVIOUR.md.
 */
class ConcurrencyLimitsComparisonTest {

  private static final Duration STEADY_FROM = Duration.ofSeconds(3);

  @Test
  void guardConvergesAtLeastAsFast_andHoldsLatencyAtLeastAsWell() {
    Figures guard = Figures.of("guard gradient",
        AdaptiveSimulationTest.runGuard(AdaptiveConcurrencyRule.of("inventory")));
    Figures gradient2 = Figures.of("concurrency-limits Gradient2", gradient2());
    Figures vegas = Figures.of("concurrency-limits Vegas", netflix(clock ->
        VegasLimit.newBuilder().initialLimit(20).maxConcurrency(1000).build()));

    System.out.println(Figures.HEADER);
    for (Figures figures : new Figures[] {guard, gradient2, vegas}) {
      System.out.println(figures.row());
    }
    for (Figures other : new Figures[] {gradient2, vegas}) {
      assertThat(guard.settleMs).isLessThanOrEqualTo(other.settleMs);
      assertThat(guard.followMs).isLessThanOrEqualTo(other.followMs);
      assertThat(guard.latencyMs).isLessThanOrEqualTo(other.latencyMs);
      assertThat(guard.halvedLatencyMs).isLessThanOrEqualTo(other.halvedLatencyMs);
    }
  }

  /** concurrency-limits' Gradient2 with guard's default bounds, through the scenario. */
  static SimulatedDependency.Run gradient2() {
    return netflix(clock ->
        Gradient2Limit.newBuilder().initialLimit(20).minLimit(1).maxConcurrency(1000).build());
  }

  private static SimulatedDependency.Run netflix(Function<ManualClock, Limit> limit) {
    ManualClock clock = new ManualClock();
    SimpleLimiter<Void> limiter = SimpleLimiter.newBuilder()
        .nanoClock(clock::nanoTime).limit(limit.apply(clock)).build();
    return AdaptiveSimulationTest.dependency().run(clock, new SimulatedDependency.Limiter() {
      @Override
      public SimulatedDependency.@Nullable Permit tryAcquire() {
        Optional<Limiter.Listener> listener = limiter.acquire(null);
        if (listener.isEmpty()) {
          return null;
        }
        Limiter.Listener acquired = listener.get();
        return failed -> {
          if (failed) {
            acquired.onDropped();
          } else {
            acquired.onSuccess();
          }
        };
      }

      @Override
      public int limit() {
        return limiter.getLimit();
      }
    }, AdaptiveSimulationTest.END);
  }

  /** One limiter's figures; a limit that never settles counts as settling at the end. */
  private record Figures(String name, long settleMs, long followMs, double latencyMs,
      double halvedLatencyMs, int low, int high, long failed) {

    static final String HEADER = String.format(Locale.ROOT, "%-30s %10s %10s %11s %11s %13s %7s",
        "limiter", "settle ms", "follow ms", "latency ms", "halved ms", "limit range", "failed");

    static Figures of(String name, SimulatedDependency.Run run) {
      Duration halved = AdaptiveSimulationTest.HALVED_AT;
      Duration dropped = AdaptiveSimulationTest.DROPPED_AT;
      int capacity = AdaptiveSimulationTest.CAPACITY;
      long never = AdaptiveSimulationTest.END.toMillis();
      return new Figures(name,
          run.settledAt(capacity, 0.10, Duration.ZERO, halved).map(Duration::toMillis)
              .orElse(never),
          run.settledAt(capacity / 2, 0.10, halved, dropped).map(Duration::toMillis)
              .orElse(never),
          run.meanLatencyMs(STEADY_FROM, halved),
          run.meanLatencyMs(halved.plusSeconds(1), dropped),
          run.minLimit(STEADY_FROM, halved), run.maxLimit(STEADY_FROM, halved),
          run.failed(Duration.ZERO, AdaptiveSimulationTest.END));
    }

    String row() {
      return String.format(Locale.ROOT, "%-30s %10d %10d %11.1f %11.1f %6d..%-5d %7d", name,
          settleMs, followMs, latencyMs, halvedLatencyMs, low, high, failed);
    }
  }
}
