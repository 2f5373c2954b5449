package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.Quota;
import dev.guard.api.rule.Rule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.InMemoryTokenService;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.jspecify.annotations.Nullable;

/**
 * docs/BEHAVIOUR.md, "Quotas", for a flow rule with a per-second threshold and two quotas, a
 * second per-second rule after it, and any schedule of calls:
 *
 * <ul>
 *   <li>Never more than a quota's limit in one of its windows: a window starts at the first
 *       admitted call and the next at the first admitted call more than a period after its
 *       start.
 *   <li>A refused call consumes from no limit (neither quota, neither per-second rule): the same
 *       schedule without its refused calls admits every call again.
 *   <li>The token service decides the quotas as the engine does locally.
 *   <li>The quotas decide exactly as fixed windows of the admitted calls: a call passes the
 *       quotas when it fits in every quota's current window, and only admitted calls count,
 *       whether the refusal came from a quota or from a later rule.
 * </ul>
 */
class FlowQuotaProperties {

  private static final long START_NANOS = 1_000_000_000_000_000L;

  record Call(long gapMs, int permits) {}

  @Provide
  Arbitrary<List<Call>> calls() {
    Arbitrary<Long> gaps = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.longs().between(0, 60)),
        Tuple.of(3, Arbitraries.longs().between(0, 1_500)));
    Arbitrary<Integer> permits = Arbitraries.integers().between(1, 3);
    return Combinators.combine(gaps, permits).as(Call::new).list().ofMinSize(1).ofMaxSize(120);
  }

  @Property(tries = 200)
  void neverMoreThanAQuotaPerWindow_refusedCallsConsumeNothing_theServiceDecidesAlike(
      @ForAll @IntRange(min = 1, max = 12) int qps,
      @ForAll @IntRange(min = 1, max = 12) int secondQps,
      @ForAll @IntRange(min = 1, max = 15) int limit,
      @ForAll @IntRange(min = 1, max = 3_000) int periodMs,
      @ForAll @IntRange(min = 1, max = 30) int longLimit,
      @ForAll @IntRange(min = 1, max = 5) int longPeriods,
      @ForAll("calls") List<Call> calls) {
    FlowRule rule = FlowRule.qps("api", qps).withQuota(limit, Duration.ofMillis(periodMs))
        .withQuota(longLimit, Duration.ofMillis((long) periodMs * longPeriods));
    FlowRule second = FlowRule.qps("api", secondQps);

    List<Long> times = new ArrayList<>();
    List<Boolean> admitted = decide(List.of(rule, second), null, calls, times);

    List<Call> withoutRefused = new ArrayList<>();
    List<Long> admittedAt = new ArrayList<>();
    List<Integer> admittedPermits = new ArrayList<>();
    long previous = 0;
    for (int i = 0; i < calls.size(); i++) {
      if (admitted.get(i)) {
        long at = times.get(i);
        withoutRefused.add(new Call(at - previous, calls.get(i).permits()));
        previous = at;
        admittedAt.add(at);
        admittedPermits.add(calls.get(i).permits());
      }
    }
    for (Quota quota : rule.quotas()) {
      withinEveryWindow(quota, admittedAt, admittedPermits);
    }
    assertThat(decide(List.of(rule, second), null, withoutRefused, new ArrayList<>()))
        .as("the refused calls took nothing").doesNotContain(false);

    FlowRule open = rule.withThreshold(1e9);
    List<Boolean> local = decide(List.of(open), null, calls, new ArrayList<>());
    ManualClock serviceClock = ManualClock.startingAt(START_NANOS);
    assertThat(decide(List.of(open.withCluster(ClusterMode.global("api"))), serviceClock, calls,
        new ArrayList<>())).as("the token service decides as the engine").isEqualTo(local);
  }

  @Property(tries = 200)
  void theQuotasDecideAsFixedWindowsOfTheAdmittedCalls(
      @ForAll @IntRange(min = 1, max = 12) int secondQps,
      @ForAll @IntRange(min = 1, max = 15) int limit,
      @ForAll @IntRange(min = 1, max = 3_000) int periodMs,
      @ForAll @IntRange(min = 1, max = 30) int longLimit,
      @ForAll @IntRange(min = 1, max = 5) int longPeriods,
      @ForAll("calls") List<Call> calls) {
    FlowRule rule = FlowRule.qps("api", 1e9).withQuota(limit, Duration.ofMillis(periodMs))
        .withQuota(longLimit, Duration.ofMillis((long) periodMs * longPeriods));
    ManualClock clock = ManualClock.startingAt(START_NANOS);
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.apply(engine.ruleSet().withRulesOf("api",
        List.of(rule, FlowRule.qps("api", secondQps))));
    List<Quota> quotas = rule.quotas();
    long[] start = new long[quotas.size()];
    long[] count = new long[quotas.size()];
    Arrays.fill(start, Long.MIN_VALUE);
    long now = 0;
    for (Call call : calls) {
      clock.advanceMillis(call.gapMs());
      now += call.gapMs();
      boolean fits = true;
      for (int q = 0; q < quotas.size(); q++) {
        boolean fresh = start[q] == Long.MIN_VALUE
            || now - start[q] > quotas.get(q).period().toMillis();
        fits &= (fresh ? 0 : count[q]) + call.permits() <= quotas.get(q).limit();
      }
      String decided;
      try (Entry ignored = engine.resource("api").permits(call.permits()).enter()) {
        decided = "admitted";
      } catch (RefusedException.Flow refused) {
        decided = refused.rule().equals(rule) ? "refused by a quota" : "refused later";
      }
      assertThat(decided).as("at %d ms, %d permits", now, call.permits())
          .isEqualTo(fits ? (decided.equals("refused later") ? decided : "admitted")
              : "refused by a quota");
      if (decided.equals("admitted")) {
        for (int q = 0; q < quotas.size(); q++) {
          if (start[q] == Long.MIN_VALUE || now - start[q] > quotas.get(q).period().toMillis()) {
            start[q] = now;
            count[q] = 0;
          }
          count[q] += call.permits();
        }
      }
    }
  }

  /** Runs the schedule on a fresh engine; returns whether each call was admitted. */
  private static List<Boolean> decide(List<Rule> rules, @Nullable ManualClock serviceClock,
      List<Call> calls, List<Long> times) {
    ManualClock clock = serviceClock == null ? ManualClock.startingAt(START_NANOS) : serviceClock;
    GuardEngine.Builder builder = GuardEngine.builder().clock(clock);
    if (serviceClock != null) {
      builder.tokenService(new InMemoryTokenService(clock).connect("quota"));
    }
    GuardEngine engine = builder.build();
    engine.apply(engine.ruleSet().withRulesOf("api", rules));
    List<Boolean> admitted = new ArrayList<>();
    long elapsed = 0;
    for (Call call : calls) {
      clock.advanceMillis(call.gapMs());
      elapsed += call.gapMs();
      times.add(elapsed);
      try (Entry ignored = engine.resource("api").permits(call.permits()).enter()) {
        admitted.add(true);
      } catch (RefusedException.Flow refused) {
        admitted.add(false);
      }
    }
    return admitted;
  }

  /** The fixed windows of a quota over the admitted calls: at most its limit in each. */
  private static void withinEveryWindow(Quota quota, List<Long> at, List<Integer> permits) {
    long periodMs = quota.period().toMillis();
    long start = Long.MIN_VALUE;
    long count = 0;
    for (int i = 0; i < at.size(); i++) {
      if (start == Long.MIN_VALUE || at.get(i) - start > periodMs) {
        start = at.get(i);
        count = 0;
      }
      count += permits.get(i);
      assertThat(count).as("%s: the window from %d ms", quota, start)
          .isLessThanOrEqualTo(quota.limit());
    }
  }
}
