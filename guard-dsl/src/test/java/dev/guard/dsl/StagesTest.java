package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.CircuitBreakerGuard;
import dev.guard.ConcurrencyGuard;
import dev.guard.Guard;
import dev.guard.PerValueConcurrencyGuard;
import dev.guard.PerValueGuard;
import dev.guard.QpsGuard;
import dev.guard.ShapedQpsGuard;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The builder's stages: which steps each rule offers, immutability and templates. */
class StagesTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  @Test
  void ruleSteps_returnTheirStage() {
    Guard base = Guard.of("r");

    assertThat(base.qps(5)).isInstanceOf(QpsGuard.class);
    assertThat(base.qps(5.5)).isInstanceOf(QpsGuard.class);
    assertThat(base.concurrency(5)).isInstanceOf(ConcurrencyGuard.class);
    assertThat(base.perValue(0, 5)).isInstanceOf(PerValueGuard.class);
    assertThat(base.perValueConcurrency(0, 5)).isInstanceOf(PerValueConcurrencyGuard.class);
    assertThat(base.errorRatio(0.5)).isInstanceOf(CircuitBreakerGuard.class);
    assertThat(base.errorCount(1)).isInstanceOf(CircuitBreakerGuard.class);
    assertThat(base.slowCallRatio(0.5, Duration.ofMillis(10)))
        .isInstanceOf(CircuitBreakerGuard.class);
  }

  @Test
  void otherSteps_endTheStage() {
    assertThat(Guard.of("r").qps(5).origin("a").getClass()).isEqualTo(Guard.class);
    assertThat(Guard.of("r").qps(5).on(engine).getClass()).isEqualTo(Guard.class);
    assertThat(Guard.of("r").errorRatio(0.5).prioritized().getClass()).isEqualTo(Guard.class);
  }

  @Test
  void qpsStage_everyStep_shapesTheSameRule() {
    ShapedQpsGuard guard = Guard.of("r").qps(10)
        .warmUp(Duration.ofSeconds(10), 4)
        .pacing(Duration.ofMillis(500))
        .fromOrigin("mobile")
        .relatedTo("other");

    assertThat(guard.flowRules()).containsExactly(FlowRule.qps("r", 10)
        .withWarmUp(Duration.ofSeconds(10), 4)
        .withMaxQueueingTime(Duration.ofMillis(500))
        .withShaping(dev.guard.api.rule.FlowRule.Shaping.PACING)
        .withOrigin("mobile")
        .withStrategy(FlowRule.Strategy.RELATED, "other"));
  }

  @Test
  void concurrencyStage_scopesTheRule() {
    ConcurrencyGuard guard = Guard.of("export").concurrency(4)
        .fromOrigin("batch").fromEntrance("nightly").clusterWide();

    assertThat(guard.flowRules()).containsExactly(FlowRule.concurrency("export", 4)
        .withOrigin("batch")
        .withStrategy(FlowRule.Strategy.ENTRANCE, "nightly")
        .withCluster(ClusterMode.global("export")));
  }

  @Test
  void perValueStages_shapeTheirRule() {
    PerValueGuard rate = Guard.of("r").perValue(0, 5).burst(2).period(Duration.ofSeconds(2))
        .except("vip", 50).valueType(String.class).maxValues(100);
    PerValueConcurrencyGuard running = Guard.of("r").perValueConcurrency(1, 2)
        .valueType(String.class).except("big", 8).maxValues(10);

    assertThat(rate.rules()).containsExactly(PerValueRule.qps("r", 0, 5).withBurst(2)
        .withPeriod(Duration.ofSeconds(2)).withException("vip", 50)
        .withValueType(String.class).withMaxValues(100));
    assertThat(running.rules()).containsExactly(PerValueRule.concurrency("r", 1, 2)
        .withValueType(String.class).withException("big", 8).withMaxValues(10));
  }

  @Test
  void stageSteps_returnNewValues_andLeaveTheTemplateUnchanged() {
    QpsGuard template = Guard.of("r").qps(10);
    ShapedQpsGuard warm = template.warmUp(Duration.ofSeconds(5));
    ShapedQpsGuard paced = template.pacing(Duration.ZERO);

    assertThat(template.flowRules()).containsExactly(FlowRule.qps("r", 10));
    assertThat(warm).isNotEqualTo(template).isNotEqualTo(paced);
    assertThat(warm.flowRules()).containsExactly(
        FlowRule.qps("r", 10).withWarmUp(Duration.ofSeconds(5), 3));
    assertThat(template.warmUp(Duration.ofSeconds(5))).isEqualTo(warm).hasSameHashCodeAs(warm);
  }

  @Test
  void stage_isAGuard_usableAsATemplateForOtherRules() {
    Guard template = Guard.of("r").qps(10).warmUp(Duration.ofSeconds(5));
    Guard withBreaker = template.errorRatio(0.5).openFor(Duration.ofSeconds(1));

    assertThat(template.rules()).hasSize(1);
    assertThat(withBreaker.rules()).containsExactly(
        FlowRule.qps("r", 10).withWarmUp(Duration.ofSeconds(5), 3),
        CircuitBreakerRule.errorRatio("r", 0.5).withOpenFor(Duration.ofSeconds(1)));
  }

  @Test
  void stage_equalsAPlainGuardDeclaringTheSame_andPrintsLikeOne() {
    Guard plain = Guard.of("r").qps(10).on(engine);
    QpsGuard staged = Guard.of("r").on(engine).qps(10);

    assertThat(staged).isEqualTo(plain).hasSameHashCodeAs(plain);
    assertThat(plain).isEqualTo(staged);
    assertThat(staged.toString()).isEqualTo(plain.toString()).startsWith("Guard[");
  }

  @Test
  void stage_decorates_likeAnyGuard() {
    Supplier<String> limited = Guard.of("r").qps(1).fromOrigin("default").on(engine)
        .decorate(() -> "ok");

    assertThat(limited.get()).isEqualTo("ok");
    assertThatThrownBy(limited::get).isInstanceOf(RefusedException.Flow.class);
    assertThat(Guard.of("s").concurrency(1).call(() -> "direct")).isEqualTo("direct");
  }

  @Test
  void stageSteps_ofACompletedStage_stillCheckTheirValues() {
    assertThatThrownBy(() -> Guard.of("r").qps(5).warmUp(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Guard.of("r").errorRatio(0.5).openFor(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("openFor");
    assertThatThrownBy(() -> Guard.of("r").errorRatio(0.5).probes(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("probes must be > 0, was 0");
    assertThatThrownBy(() -> Guard.of("r").qps(5).clusterWide().warmUp(Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void previouslyValidOrders_stillDeclareTheirRules() {
    assertThat(Guard.of("r").qps(5).warmUp(Duration.ofSeconds(1)).pacing(Duration.ZERO)
        .errorRatio(0.5).openFor(Duration.ofSeconds(2)).rules()).hasSize(2);
    assertThat(Guard.of("r").concurrency(2).fromOrigin("a").qps(3).fromOrigin("b").flowRules())
        .containsExactly(FlowRule.concurrency("r", 2).withOrigin("a"),
            FlowRule.qps("r", 3).withOrigin("b"));
    assertThat(Guard.of("r").perValue(0, 5).pacing(Duration.ZERO).maxValues(10).rules())
        .containsExactly(PerValueRule.qps("r", 0, 5).withPacing(Duration.ZERO)
            .withMaxValues(10));
    assertThat(Guard.of("r").slowCallRatio(0.5, Duration.ofMillis(300))
        .errorCount(2).openFor(Duration.ofSeconds(3)).rules())
        .containsExactly(CircuitBreakerRule.slowCallRatio("r", Duration.ofMillis(300), 0.5),
            CircuitBreakerRule.errorCount("r", 2).withOpenFor(Duration.ofSeconds(3)));
    assertThat(Guard.of("r").qps(5).perInstance().origin("x").entryType(
        dev.guard.api.EntryType.IN).prioritized().flowRules())
        .containsExactly(FlowRule.qps("r", 5).withCluster(ClusterMode.perInstance("r")));
  }
}
