package dev.guard.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * For any rule and any sequence of calls (entered, then exited in any order, failed or slow),
 * clock steps and operator controls, the engine's breaker admits exactly the calls the reference
 * model ({@link BreakerModel}) admits and is in the model's state after every step; once every
 * call has ended, no call is counted as running.
 */
class BreakerProperties {

  /** One step: ENTER, EXIT of open call {@code index} (failed or not), TICK by {@code n} ms, or a control. */
  record Step(String kind, int n, boolean failed) {}

  /** An admitted call: its entry, when it entered and the probe epoch the model gave it. */
  record Call(Entry entry, long enteredMs, long probe) {}

  @Provide
  Arbitrary<CircuitBreakerRule> rules() {
    Arbitrary<CircuitBreakerRule.Strategy> strategies = Arbitraries.of(CircuitBreakerRule.Strategy.class);
    Arbitrary<Integer> windows = Arbitraries.of(100, 200, 1000);
    Arbitrary<Integer> buckets = Arbitraries.of(1, 2, 4, 5, 10);
    return Combinators.combine(strategies, Arbitraries.of(0.0, 0.25, 0.5, 0.8, 1.0),
            Arbitraries.integers().between(0, 4), Arbitraries.integers().between(1, 5),
            windows, buckets, Arbitraries.longs().between(10, 300),
            Arbitraries.integers().between(1, 3))
        .as((strategy, ratio, count, minCalls, window, bucketCount, openFor, probes) ->
            new CircuitBreakerRule("R", strategy,
                strategy == CircuitBreakerRule.Strategy.ERROR_COUNT ? count : ratio,
                strategy == CircuitBreakerRule.Strategy.SLOW_CALL_RATIO ? Duration.ofMillis(count * 10L) : null,
                minCalls, Duration.ofMillis(window), bucketCount, Duration.ofMillis(openFor),
                probes, openFor % 3 == 0 ? null : Duration.ofMillis(openFor / 2 + 5)));
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Step> step = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, Arbitraries.just(new Step("ENTER", 0, false))),
        net.jqwik.api.Tuple.of(6, Combinators.combine(Arbitraries.integers().between(0, 5),
            Arbitraries.of(true, false)).as((i, f) -> new Step("EXIT", i, f))),
        net.jqwik.api.Tuple.of(5, Arbitraries.integers().between(0, 160)
            .map(ms -> new Step("TICK", ms, false))),
        net.jqwik.api.Tuple.of(1, Arbitraries.of("FORCE_OPEN", "FORCE_CLOSED", "RESET")
            .map(kind -> new Step(kind, 0, false))));
    return step.list().ofMaxSize(80);
  }

  @Provide
  Arbitrary<Long> starts() {
    return ClockStarts.any();
  }

  @Property(tries = 400)
  void breaker_followsTheReferenceModel_andGaugesReturnToZero(
      @ForAll("rules") CircuitBreakerRule rule,
      @ForAll("steps") List<Step> steps,
      @ForAll("starts") long start) {
    ManualClock clock = ManualClock.startingAt(start);
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(rule)));
    GuardedResource resource = engine.resource("R");
    CircuitBreaker breaker = engine.breakers("R").get(0);
    BreakerModel model = new BreakerModel(rule);
    List<Call> open = new ArrayList<>();
    long now = 0;
    int index = 0;
    for (Step step : steps) {
      String at = "step " + index++ + " " + step + " at " + now + " ms";
      switch (step.kind()) {
        case "ENTER" -> {
          long expected = model.enter(now);
          boolean admitted;
          try {
            open.add(new Call(resource.enterAsync(), now, expected));
            admitted = true;
          } catch (RefusedException refused) {
            admitted = false;
          }
          assertThat(admitted).as(at).isEqualTo(expected != BreakerModel.REFUSED);
        }
        case "EXIT" -> {
          if (!open.isEmpty()) {
            Call call = open.remove(step.n() % open.size());
            if (step.failed()) {
              call.entry().recordError(new IllegalStateException("failed"));
            }
            call.entry().close();
            model.exit(call.probe(), now, now - call.enteredMs(), step.failed());
          }
        }
        case "TICK" -> {
          clock.advanceMillis(step.n());
          now += step.n();
        }
        case "FORCE_OPEN" -> {
          breaker.forceOpen();
          model.forceOpen();
        }
        case "FORCE_CLOSED" -> {
          breaker.forceClosed();
          model.forceClosed();
        }
        default -> {
          breaker.reset();
          model.reset();
        }
      }
      assertThat(breaker.state()).as(at).isEqualTo(model.state());
    }
    open.forEach(call -> call.entry().close());

    assertThat(engine.stats("R").concurrency()).isZero();
  }
}
