package dev.guard.testkit.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.guard.testkit.ArrivalSchedule;
import dev.guard.Guard;
import dev.guard.api.rule.FlowRule;
import java.time.Duration;
import java.util.List;
import java.util.function.LongPredicate;
import net.jqwik.api.Arbitraries;
import org.junit.jupiter.api.Test;

class FlowArbitrariesTest {

  private static final long TWO_MINUTES = Duration.ofMinutes(2).toNanos();

  @Test
  void clockStarts_sampled_coverBothEndsOfTheCounterAndBelowZero() {
    List<Long> starts = FlowArbitraries.clockStarts().sampleStream().limit(2000).toList();

    assertThat(starts).anyMatch(start -> start >= Long.MAX_VALUE - TWO_MINUTES);
    assertThat(starts).anyMatch(start -> start <= Long.MIN_VALUE + TWO_MINUTES);
    assertThat(starts).anyMatch(start -> start < 0 && start >= -TWO_MINUTES);
    assertThat(starts).contains(0L);
  }

  @Test
  void arrivalSchedules_sampled_includeBurstsAndSubMillisecondGaps() {
    List<ArrivalSchedule> schedules =
        FlowArbitraries.arrivalSchedules().sampleStream().limit(200).toList();

    assertThat(schedules).allMatch(s -> s.size() >= 1 && s.size() <= 200);
    assertThat(schedules).anyMatch(s -> hasGap(s, gap -> gap == 0));
    assertThat(schedules).anyMatch(s -> hasGap(s, gap -> gap % 1_000_000 != 0));
  }

  @Test
  void arrivalSchedules_gapBelowAMillisecond_stillGenerates() {
    ArrivalSchedule schedule =
        FlowArbitraries.arrivalSchedules(10, Duration.ofNanos(500)).sample();

    assertThat(schedule.length()).isLessThanOrEqualTo(Duration.ofNanos(5000));
  }

  @Test
  void arrivalSchedules_zeroArrivals_rejectedNamingMaxArrivals() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> FlowArbitraries.arrivalSchedules(0, Duration.ofMillis(1)))
        .withMessage("maxArrivals must be from 1 to 10000000, was 0");
  }

  @Test
  void arrivalSchedules_zeroGap_rejectedNamingMaxGap() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> FlowArbitraries.arrivalSchedules(5, Duration.ZERO))
        .withMessage("maxGap must be positive, was PT0S");
  }

  @Test
  void arrivalSchedules_gapTimesArrivalsBeyondLongNanos_rejectedNamingMaxGap() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> FlowArbitraries.arrivalSchedules(1000, Duration.ofDays(365L * 100)))
        .withMessageStartingWith("maxGap times maxArrivals must fit in a long of nanoseconds");
  }

  @Test
  void ruleArbitraries_blankResource_rejectedNamingResource() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> FlowArbitraries.flowRules(" "))
        .withMessage("resource must not be blank, was ' '");
  }

  @Test
  void guards_nullRules_throwNamingRules() {
    assertThatNullPointerException().isThrownBy(() -> FlowArbitraries.guards(null))
        .withMessage("rules");
  }

  @Test
  void guards_scopedAndRelatedRules_declaredThroughTheDsl() {
    FlowRule origin = FlowRule.qps("R", 3).withOrigin("mobile");
    FlowRule related = FlowRule.qps("R", 3).withStrategy(FlowRule.Strategy.RELATED, "db");
    FlowRule chained = FlowRule.concurrency("R", 2).withStrategy(FlowRule.Strategy.ENTRANCE, "api");

    for (FlowRule rule : List.of(origin, related, chained)) {
      Guard guard = FlowArbitraries.guards(Arbitraries.just(rule)).sample();
      assertThat(guard.flowRules()).containsExactly(rule);
    }
  }

  @Test
  void guards_fractionalConcurrencyCount_rejectedNamingRule() {
    FlowRule rule = FlowRule.concurrency("R", 2.5);

    assertThatIllegalArgumentException()
        .isThrownBy(() -> GuardDeclarations.declare(rule))
        .withMessageStartingWith("rule must have a whole concurrency count, was FlowRule[");
  }

  @Test
  void guards_queueingBoundOnAFastRejectRule_rejectedAsNotExpressible() {
    FlowRule rule = FlowRule.qps("R", 5).withMaxQueueingTime(Duration.ofSeconds(3));

    assertThatIllegalArgumentException()
        .isThrownBy(() -> GuardDeclarations.declare(rule))
        .withMessageStartingWith("rule must be expressible through the Guard DSL");
    assertThat(rule.shaping()).isEqualTo(FlowRule.Shaping.REFUSE);
  }

  private static boolean hasGap(ArrivalSchedule schedule, LongPredicate gapTest) {
    List<Duration> offsets = schedule.offsets();
    for (int i = 1; i < offsets.size(); i++) {
      if (gapTest.test(offsets.get(i).minus(offsets.get(i - 1)).toNanos())) {
        return true;
      }
    }
    return false;
  }
}
