package dev.guard.testkit.traffic;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class AdaptiveExploreTest {
  SimulatedDependency dep = SimulatedDependency.builder().capacity(50)
          .serviceTime(Duration.ofMillis(20)).queue(200).load(4000)
          .capacityFrom(Duration.ofSeconds(20), 25).loadFrom(Duration.ofSeconds(40), 800).build();

  @Test
  void explore() {
    for (AdaptiveConcurrencyRule.Algorithm algorithm : AdaptiveConcurrencyRule.Algorithm.values()) {
      ManualClock clock = new ManualClock();
      GuardEngine engine = GuardEngine.builder().clock(clock).build();
      engine.resource("dep").declare(List.of(AdaptiveConcurrencyRule.of("dep").withAlgorithm(algorithm).withSlowerThan(Duration.ofMillis(algorithm == AdaptiveConcurrencyRule.Algorithm.AIMD ? 30 : 0))));
      print(algorithm.toString(), dep.run(clock, SimulatedDependency.Limiter.of(engine, "dep"), Duration.ofSeconds(60)));
    }
    ManualClock clock = new ManualClock();
    SimpleLimiter<Void> g2 = SimpleLimiter.newBuilder().nanoClock(clock::nanoTime)
        .limit(Gradient2Limit.newBuilder().initialLimit(20).minLimit(1).maxConcurrency(1000).build()).build();
    print("netflix gradient2", dep.run(clock, netflix(g2), Duration.ofSeconds(60)));
    ManualClock clock2 = new ManualClock();
    SimpleLimiter<Void> vegas = SimpleLimiter.newBuilder().nanoClock(clock2::nanoTime)
        .limit(VegasLimit.newBuilder().initialLimit(20).maxConcurrency(1000).build()).build();
    print("netflix vegas", dep.run(clock2, netflix(vegas), Duration.ofSeconds(60)));
  }

  static SimulatedDependency.Limiter netflix(SimpleLimiter<Void> limiter) {
    return new SimulatedDependency.Limiter() {
      @Override public SimulatedDependency.@Nullable Permit tryAcquire() {
        Optional<Limiter.Listener> l = limiter.acquire(null);
        if (l.isEmpty()) return null;
        Limiter.Listener listener = l.get();
        return failed -> { if (failed) listener.onDropped(); else listener.onSuccess(); };
      }
      @Override public int limit() { return limiter.getLimit(); }
    };
  }

  static void print(String name, SimulatedDependency.Run run) {
      StringBuilder line = new StringBuilder(name + ": ");
      for (SimulatedDependency.Sample s : run.samples()) {
        if (s.atMs() % 500 == 0) {
          line.append(s.atMs() / 1000.0).append('=').append(s.limit()).append('/')
              .append(Math.round(s.meanLatencyMs())).append(s.failed() > 0 ? "F" + s.failed() : "").append(' ');
        }
      }
      System.out.println(line);
  }
}
