package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.PerValueRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.InMemoryTokenService;
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
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * docs/BEHAVIOUR.md, "Per-value limits", "Quotas": the window arithmetic of a value's buckets,
 * for any rule (threshold, burst, period, one quota with its own period) and any schedule of
 * calls, decided locally and by the in-memory token service.
 *
 * <ul>
 *   <li>Each limit holds in every span of time: for a bucket of size {@code S} (threshold plus
 *       burst, or the quota's limit) earning {@code T} per period {@code D}, the calls admitted in
 *       a span of at most {@code D} are at most {@code 2 S}, and in a span of length {@code L} at
 *       most {@code S + T + ⌊L · T / D⌋}; between two refills at most {@code S}.
 *   <li>A refused call consumes from no limit: the same schedule without its refused calls
 *       admits every call again, at the same times.
 *   <li>The token service decides as the engine does locally: one engine on the service, with
 *       the same schedule, admits exactly the same calls.
 * </ul>
 */
class PerValueQuotaProperties {

  private static final long START_NANOS = 1_000_000_000_000_000L;

  record Call(long gapMs, int permits) {}

  record Limit(long size, long rate, long periodMs) {}

  @Provide
  Arbitrary<List<Call>> calls() {
    Arbitrary<Long> gaps = Arbitraries.frequencyOf(
        Tuple.of(5, Arbitraries.longs().between(0, 40)),
        Tuple.of(5, Arbitraries.longs().between(0, 900)));
    Arbitrary<Integer> permits = Arbitraries.integers().between(1, 3);
    return Combinators.combine(gaps, permits).as(Call::new).list().ofMinSize(1).ofMaxSize(120);
  }

  @Property(tries = 200)
  void everyLimitHolds_andRefusedCallsConsumeNothing_andTheServiceDecidesAlike(
      @ForAll @IntRange(min = 1, max = 8) int threshold,
      @ForAll @IntRange(min = 0, max = 3) int burst,
      @ForAll @IntRange(min = 1, max = 300) int periodMs,
      @ForAll @IntRange(min = 1, max = 20) int quota,
      @ForAll @IntRange(min = 1, max = 6) int quotaPeriods,
      @ForAll("calls") List<Call> calls) {
    Duration period = Duration.ofMillis(periodMs);
    Duration quotaPeriod = period.multipliedBy(quotaPeriods);
    PerValueRule rule = PerValueRule.qps("api", 0, threshold).withBurst(burst).withPeriod(period)
        .withQuota(quota, quotaPeriod);

    List<Long> times = new ArrayList<>();
    List<Boolean> local = decide(rule, false, calls, times);

    List<Long> admittedAt = new ArrayList<>();
    List<Integer> admittedPermits = new ArrayList<>();
    List<Call> withoutRefused = new ArrayList<>();
    long previous = 0;
    for (int i = 0; i < calls.size(); i++) {
      if (local.get(i)) {
        admittedAt.add(times.get(i));
        admittedPermits.add(calls.get(i).permits());
        long at = times.get(i) - START_NANOS / 1_000_000;
        withoutRefused.add(new Call(at - previous, calls.get(i).permits()));
        previous = at;
      }
    }
    for (Limit limit : List.of(new Limit(threshold + burst, threshold, periodMs),
        new Limit(quota, quota, quotaPeriod.toMillis()))) {
      holds(limit, admittedAt, admittedPermits);
    }

    assertThat(decide(rule, false, withoutRefused, new ArrayList<>()))
        .as("the refused calls took nothing").doesNotContain(false);

    PerValueRule shared = rule.withCluster(ClusterMode.global("api"));
    assertThat(decide(shared, true, calls, new ArrayList<>()))
        .as("the token service decides as the engine").isEqualTo(local);
  }

  /** Runs the schedule on a fresh engine; returns whether each call was admitted. */
  private static List<Boolean> decide(PerValueRule rule, boolean viaService,
      List<Call> calls, List<Long> times) {
    ManualClock clock = ManualClock.startingAt(START_NANOS);
    GuardEngine.Builder builder = GuardEngine.builder().clock(clock);
    if (viaService) {
      builder.tokenService(new InMemoryTokenService(clock).connect("quota"));
    }
    GuardEngine engine = builder.build();
    engine.apply(engine.ruleSet().withRulesOf("api", List.of(rule)));
    List<Boolean> admitted = new ArrayList<>();
    for (Call call : calls) {
      clock.advanceMillis(call.gapMs());
      times.add(clock.millis());
      try (Entry ignored = engine.resource("api").permits(call.permits()).enter("key")) {
        admitted.add(true);
      } catch (RefusedException.PerValue refused) {
        admitted.add(false);
      }
    }
    return admitted;
  }

  /** The span bounds of one limit over the admitted calls. */
  private static void holds(Limit limit, List<Long> at, List<Integer> permits) {
    for (int from = 0; from < at.size(); from++) {
      long sum = 0;
      for (int to = from; to < at.size(); to++) {
        sum += permits.get(to);
        long span = at.get(to) - at.get(from);
        long bound = limit.size() + limit.rate() + span * limit.rate() / limit.periodMs();
        if (span <= limit.periodMs()) {
          bound = Math.min(bound, 2 * limit.size());
        }
        assertThat(sum).as("%s: admitted from %d ms to %d ms", limit, at.get(from), at.get(to))
            .isLessThanOrEqualTo(bound);
      }
    }
  }
}
