package dev.guard.testkit.traffic;

import dev.guard.testkit.ArrivalSchedule;
import dev.guard.testkit.ManualClock;
import dev.guard.testkit.internal.DurationArguments;
import dev.guard.Guard;
import dev.guard.api.rule.FlowRule;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * jqwik arbitraries for guard's values: flow rules, guards declaring them, arrival schedules and
 * clock start readings, for stating limiting behaviour as properties.
 *
 * <pre>{@code
 * @Property
 * void qpsGuard_neverPassesMoreThanItsCountPerSecond(
 *     @ForAll("guards") Guard guard,
 *     @ForAll("schedules") ArrivalSchedule schedule,
 *     @ForAll("starts") long start) {
 *   ManualClock clock = ManualClock.startingAt(start);
 *   GuardEngine engine = GuardEngine.builder().clock(clock)
 *       .secondWindow(1, Duration.ofSeconds(1)).build();
 *   TrafficSimulator.Report report = TrafficSimulator.of(clock).run(guard.on(engine), schedule);
 *   int count = (int) guard.flowRules().get(0).threshold();
 *   assertThat(report).neverPassesMoreThanPerWindow(Duration.ofSeconds(1), count);
 * }
 *
 * @Provide
 * Arbitrary<Guard> guards() {
 *   return FlowArbitraries.guards(FlowArbitraries.qpsRules("R"));
 * }
 *
 * @Provide
 * Arbitrary<ArrivalSchedule> schedules() {
 *   return FlowArbitraries.arrivalSchedules();
 * }
 *
 * @Provide
 * Arbitrary<Long> starts() {
 *   return FlowArbitraries.clockStarts();
 * }
 * }</pre>
 *
 * <p>Rule counts are whole numbers in ranges a test can saturate with a few hundred calls; every
 * generated rule is valid, applies to every caller and is measured on its own resource. The
 * arbitraries shrink towards small counts, short gaps and few arrivals.
 */
public final class FlowArbitraries {

  private static final long NANOS_PER_MILLI = 1_000_000L;
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private FlowArbitraries() {}

  /**
   * Fast-reject QPS rules with a count from 1 to 100 calls per second.
   *
   * @param resource the rules' resource; not blank
   * @return rules like {@code FlowRule.qps(resource, 7)}
   * @throws IllegalArgumentException if {@code resource} is blank
   */
  public static Arbitrary<FlowRule> qpsRules(String resource) {
    FlowRule template = FlowRule.qps(resource, 1);
    return counts(100).map(template::withThreshold);
  }

  /**
   * Concurrency rules with a limit from 1 to 50 calls running at once.
   *
   * @param resource the rules' resource; not blank
   * @return rules like {@code FlowRule.concurrency(resource, 4)}
   * @throws IllegalArgumentException if {@code resource} is blank
   */
  public static Arbitrary<FlowRule> concurrencyRules(String resource) {
    FlowRule template = FlowRule.concurrency(resource, 1);
    return counts(50).map(template::withThreshold);
  }

  /**
   * QPS rules that shape traffic, in equal shares: warm-up (period 1 to 30 s, cold factor 2 to 5),
   * pacing (queueing bound 0 to 2 s) and both; counts from 1 to 100 calls per second.
   *
   * @param resource the rules' resource; not blank
   * @return shaped rules
   * @throws IllegalArgumentException if {@code resource} is blank
   */
  public static Arbitrary<FlowRule> shapedQpsRules(String resource) {
    Arbitrary<FlowRule> rates = qpsRules(resource);
    Arbitrary<Duration> periods = Arbitraries.integers().between(1, 30).map(Duration::ofSeconds);
    Arbitrary<Integer> factors = Arbitraries.integers().between(2, 5);
    Arbitrary<Duration> queueing = Arbitraries.integers().between(0, 2000).map(Duration::ofMillis);
    Arbitrary<FlowRule> warmUp = Combinators.combine(rates, periods, factors)
        .as((rule, period, factor) -> warmedUp(rule, period, factor));
    Arbitrary<FlowRule> pacing = Combinators.combine(rates, queueing)
        .as((rule, bound) -> paced(rule, bound));
    Arbitrary<FlowRule> both = Combinators.combine(warmUp, queueing)
        .as((rule, bound) -> paced(rule, bound));
    return Arbitraries.oneOf(List.of(warmUp, pacing, both));
  }

  /**
   * Any flow rule of this class, in equal shares: fast-reject QPS, concurrency and shaped QPS.
   *
   * @param resource the rules' resource; not blank
   * @return flow rules
   * @throws IllegalArgumentException if {@code resource} is blank
   */
  public static Arbitrary<FlowRule> flowRules(String resource) {
    return Arbitraries.oneOf(
        List.of(qpsRules(resource), concurrencyRules(resource), shapedQpsRules(resource)));
  }

  /**
   * Unbound guards that each declare one generated rule through the DSL ({@code qps}, {@code
   * concurrency}, {@code origin}, {@code relatedTo}, {@code fromEntrance}, {@code warmUp},
   * {@code pacing}); bind them with {@link Guard#on} to an engine on a {@link ManualClock}.
   *
   * <pre>{@code
   * Arbitrary<Guard> guards = FlowArbitraries.guards(FlowArbitraries.flowRules("checkout"));
   * }</pre>
   *
   * @param rules the rules to declare, for example from {@link #flowRules(String)}
   * @return guards whose {@link Guard#flowRules()} is exactly one generated rule
   * @throws IllegalArgumentException when a value is generated, if a rule cannot be declared
   *     through the DSL (a concurrency count that is not a whole number, or warm-up or queueing
   *     settings on a rule whose behaviour does not use them)
   */
  public static Arbitrary<Guard> guards(Arbitrary<FlowRule> rules) {
    Objects.requireNonNull(rules, "rules");
    return rules.map(GuardDeclarations::declare);
  }

  /**
   * Arrival schedules of 1 to 200 calls with gaps of up to 300 ms; see {@link
   * #arrivalSchedules(int, Duration)}.
   *
   * @return schedules
   */
  public static Arbitrary<ArrivalSchedule> arrivalSchedules() {
    return arrivalSchedules(200, Duration.ofMillis(300));
  }

  /**
   * Arrival schedules built from random gaps: about three gaps in ten are zero, so calls arrive in
   * bursts; the others are whole milliseconds or, now and then, any number of nanoseconds up to
   * {@code maxGap}. The first gap delays the first call.
   *
   * <pre>{@code
   * Arbitrary<ArrivalSchedule> dense =
   *     FlowArbitraries.arrivalSchedules(500, Duration.ofMillis(20));
   * }</pre>
   *
   * @param maxArrivals the most calls in a schedule; from 1 to {@value
   *     ArrivalSchedule#MAX_ARRIVALS}
   * @param maxGap the longest gap between calls; positive
   * @return schedules of 1 to {@code maxArrivals} calls
   * @throws IllegalArgumentException if a value is out of range, or the longest possible schedule
   *     would not fit in a {@code long} of nanoseconds
   */
  public static Arbitrary<ArrivalSchedule> arrivalSchedules(int maxArrivals, Duration maxGap) {
    if (maxArrivals <= 0 || maxArrivals > ArrivalSchedule.MAX_ARRIVALS) {
      throw DurationArguments.invalid("maxArrivals", maxArrivals,
          "must be from 1 to " + ArrivalSchedule.MAX_ARRIVALS);
    }
    long gapNanos = DurationArguments.positiveNanos("maxGap", maxGap);
    if (gapNanos > Long.MAX_VALUE / maxArrivals) {
      throw DurationArguments.invalid("maxGap", maxGap, "times maxArrivals must fit in a long of nanoseconds");
    }
    Arbitrary<Long> anyNanos = Arbitraries.longs().between(0, gapNanos);
    Arbitrary<Long> gaps = gapNanos < NANOS_PER_MILLI
        ? Arbitraries.frequencyOf(List.of(Tuple.of(3, Arbitraries.just(0L)), Tuple.of(7, anyNanos)))
        : Arbitraries.frequencyOf(List.of(
            Tuple.of(3, Arbitraries.just(0L)),
            Tuple.of(5, Arbitraries.longs().between(1, gapNanos / NANOS_PER_MILLI)
                .map(ms -> ms * NANOS_PER_MILLI)),
            Tuple.of(2, anyNanos)));
    return gaps.list().ofMinSize(1).ofMaxSize(maxArrivals).map(FlowArbitraries::fromGaps);
  }

  /**
   * Clock start readings in nanoseconds, for {@link ManualClock#startingAt(long)}: about a quarter
   * each within two minutes below {@link Long#MAX_VALUE} (so runs wrap the counter), within two
   * minutes above {@link Long#MIN_VALUE}, and within two minutes below zero, plus zero and any
   * {@code long}. Limiting decisions must not depend on where the clock starts.
   *
   * <pre>{@code
   * @Property
   * void decisions_anyClockStart_same(@ForAll("starts") long start) { ... }
   *
   * @Provide Arbitrary<Long> starts() { return FlowArbitraries.clockStarts(); }
   * }</pre>
   *
   * @return start readings
   */
  public static Arbitrary<Long> clockStarts() {
    long twoMinutes = 120 * NANOS_PER_SECOND;
    return Arbitraries.frequencyOf(List.of(
        Tuple.of(3, Arbitraries.longs().between(Long.MAX_VALUE - twoMinutes, Long.MAX_VALUE)),
        Tuple.of(3, Arbitraries.longs().between(Long.MIN_VALUE, Long.MIN_VALUE + twoMinutes)),
        Tuple.of(3, Arbitraries.longs().between(-twoMinutes, -1)),
        Tuple.of(1, Arbitraries.just(0L)),
        Tuple.of(2, Arbitraries.longs())));
  }

  private static Arbitrary<Double> counts(int max) {
    return Arbitraries.integers().between(1, max).map(Integer::doubleValue);
  }

  private static FlowRule warmedUp(FlowRule rule, Duration period, int coldFactor) {
    return rule.withWarmUp(period, coldFactor);
  }

  private static FlowRule paced(FlowRule rule, Duration bound) {
    return rule.withMaxQueueingTime(bound).withShaping(FlowRule.Shaping.PACING);
  }

  private static ArrivalSchedule fromGaps(List<Long> gaps) {
    long[] offsets = new long[gaps.size()];
    long at = 0;
    for (int i = 0; i < offsets.length; i++) {
      at += gaps.get(i);
      offsets[i] = at;
    }
    return ArrivalSchedule.atNanos(offsets);
  }
}
