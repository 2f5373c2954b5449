package dev.guard.testkit.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.testkit.ArrivalSchedule;
import dev.guard.Guard;
import dev.guard.api.rule.FlowRule;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The arbitraries generate what their javadoc promises. */
class FlowArbitrariesProperties {

  @Property(tries = 200)
  void qpsRules_generated_fastRejectQpsWithWholeCountsUpToHundred(@ForAll("qps") FlowRule rule) {
    assertThat(rule.resource()).isEqualTo("R");
    assertThat(rule.metric()).isEqualTo(FlowRule.Metric.QPS);
    assertThat(rule.shaping()).isEqualTo(FlowRule.Shaping.REFUSE);
    assertThat(rule.threshold()).isBetween(1.0, 100.0).isEqualTo(Math.rint(rule.threshold()));
  }

  @Property(tries = 200)
  void concurrencyRules_generated_wholeLimitsUpToFifty(@ForAll("concurrency") FlowRule rule) {
    assertThat(rule.metric()).isEqualTo(FlowRule.Metric.CONCURRENCY);
    assertThat(rule.threshold()).isBetween(1.0, 50.0).isEqualTo(Math.rint(rule.threshold()));
  }

  @Property(tries = 200)
  void shapedQpsRules_generated_shapeWithinTheDocumentedRanges(@ForAll("shaped") FlowRule rule) {
    assertThat(rule.metric()).isEqualTo(FlowRule.Metric.QPS);
    assertThat(rule.warmUp() != null || rule.shaping() == FlowRule.Shaping.PACING).isTrue();
    if (rule.warmUp() != null) {
      assertThat(rule.warmUp().period()).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(30));
      assertThat(rule.warmUp().coldFactor()).isBetween(2, 5);
    }
    assertThat(rule.maxQueueingTime()).isBetween(Duration.ZERO, Duration.ofSeconds(2));
  }

  @Property(tries = 300)
  void guards_anyFlowRule_declareExactlyThatRule(@ForAll("rules") FlowRule rule) {
    Guard guard = GuardDeclarations.declare(rule);

    assertThat(guard.flowRules()).containsExactly(rule);
  }

  @Property(tries = 200)
  void arrivalSchedules_generated_orderedAndWithinBounds(@ForAll("schedules") ArrivalSchedule s) {
    List<Duration> offsets = s.offsets();

    assertThat(offsets).hasSizeBetween(1, 50).isSorted();
    for (int i = 1; i < offsets.size(); i++) {
      assertThat(offsets.get(i).minus(offsets.get(i - 1)))
          .isLessThanOrEqualTo(Duration.ofMillis(40));
    }
    assertThat(s.length()).isEqualTo(offsets.get(offsets.size() - 1));
  }

  @Provide
  Arbitrary<FlowRule> qps() {
    return FlowArbitraries.qpsRules("R");
  }

  @Provide
  Arbitrary<FlowRule> concurrency() {
    return FlowArbitraries.concurrencyRules("R");
  }

  @Provide
  Arbitrary<FlowRule> shaped() {
    return FlowArbitraries.shapedQpsRules("R");
  }

  @Provide
  Arbitrary<FlowRule> rules() {
    return FlowArbitraries.flowRules("R");
  }

  @Provide
  Arbitrary<ArrivalSchedule> schedules() {
    return FlowArbitraries.arrivalSchedules(50, Duration.ofMillis(40));
  }
}
