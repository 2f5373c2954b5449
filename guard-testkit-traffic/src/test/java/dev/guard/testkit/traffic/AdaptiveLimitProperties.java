package dev.guard.testkit.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.api.rule.RuleState;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jspecify.annotations.Nullable;

/**
 * Over random capacities, service times, load shapes, algorithms and bounds: the adaptive limit
 * stays within its bounds, never admits more calls than the limit, and every call's place comes
 * back once the load stops.
 */
class AdaptiveLimitProperties {

  @Property(tries = 100)
  void limit_staysInBounds_admitsNoMoreThanItself_andGivesEveryPlaceBack(
      @ForAll @IntRange(min = 1, max = 80) int capacity,
      @ForAll @IntRange(min = 1, max = 40) int serviceMs,
      @ForAll @IntRange(min = 0, max = 100) int queue,
      @ForAll("loads") List<Integer> loadPerSecond,
      @ForAll("rules") AdaptiveConcurrencyRule rule) {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.resource(rule.resource()).declare(List.of(rule));
    SimulatedDependency.Builder builder = SimulatedDependency.builder()
        .capacity(capacity).serviceTime(Duration.ofMillis(serviceMs)).queue(queue);
    for (int i = 0; i < loadPerSecond.size(); i++) {
      builder.loadFrom(Duration.ofSeconds(i), loadPerSecond.get(i));
    }
    builder.loadFrom(Duration.ofSeconds(loadPerSecond.size()), 0); // then the calls drain
    Checked limiter = new Checked(SimulatedDependency.Limiter.of(engine, rule.resource()));

    // long enough after the load for every admitted call to end: at most capacity + queue calls
    // are in flight, served capacity at a time, and a failure is answered 1 ms later (a run's
    // length is whole tenths of a second)
    long drainMs = ((queue + capacity) / capacity + 1) * serviceMs + 1_000L;
    drainMs = (drainMs + 99) / 100 * 100;
    SimulatedDependency.Run run = builder.build().run(clock, limiter,
        Duration.ofSeconds(loadPerSecond.size()).plusMillis(drainMs));

    assertThat(limiter.overAdmitted).as("calls admitted over the limit").isZero();
    assertThat(run.samples()).allSatisfy(sample ->
        assertThat(sample.limit()).isBetween(rule.minLimit(), rule.maxLimit()));
    assertThat(limiter.outstanding).as("places not given back").isZero();
    assertThat(engine.stats(rule.resource()).concurrency()).isZero();
    assertThat(engine.ruleStates(rule.resource())).singleElement()
        .isInstanceOfSatisfying(RuleState.AdaptiveConcurrencyState.class,
            state -> assertThat(state.inFlight()).isZero());
  }

  @Provide
  Arbitrary<List<Integer>> loads() {
    return Arbitraries.integers().between(0, 6000).list().ofMinSize(1).ofMaxSize(5);
  }

  @Provide
  Arbitrary<AdaptiveConcurrencyRule> rules() {
    Arbitrary<Integer> min = Arbitraries.integers().between(1, 40);
    return Combinators.combine(min, Arbitraries.integers().between(0, 40),
            Arbitraries.integers().between(0, 200),
            Arbitraries.of(AdaptiveConcurrencyRule.Algorithm.class),
            Arbitraries.integers().between(1, 300), Arbitraries.integers().between(0, 60))
        .as((low, toInitial, toMax, algorithm, windowMs, slowMs) ->
            AdaptiveConcurrencyRule.of("dependency")
                .withLimits(low + toInitial, low, low + toInitial + toMax)
                .withAlgorithm(algorithm)
                .withWindow(Duration.ofMillis(windowMs))
                .withSlowerThan(Duration.ofMillis(slowMs)));
  }

  /** Counts the calls in flight and those admitted while the limit was already reached. */
  private static final class Checked implements SimulatedDependency.Limiter {

    private final SimulatedDependency.Limiter limiter;
    int outstanding;
    int overAdmitted;

    Checked(SimulatedDependency.Limiter limiter) {
      this.limiter = limiter;
    }

    @Override
    public SimulatedDependency.@Nullable Permit tryAcquire() {
      int limit = limiter.limit();
      SimulatedDependency.Permit permit = limiter.tryAcquire();
      if (permit == null) {
        return null;
      }
      outstanding++;
      if (outstanding > limit) {
        overAdmitted++;
      }
      return failed -> {
        outstanding--;
        permit.release(failed);
      };
    }

    @Override
    public int limit() {
      return limiter.limit();
    }
  }
}
