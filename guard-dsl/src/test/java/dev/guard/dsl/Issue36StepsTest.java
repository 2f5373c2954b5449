package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.AdaptiveConcurrencyGuard;
import dev.guard.CircuitBreakerGuard;
import dev.guard.ClusterSteps;
import dev.guard.ConcurrencyGuard;
import dev.guard.Guard;
import dev.guard.OriginSteps;
import dev.guard.PacedPerValueGuard;
import dev.guard.PerInstanceSteps;
import dev.guard.PerValueConcurrencyGuard;
import dev.guard.PerValueGuard;
import dev.guard.QpsGuard;
import dev.guard.QuotaGuard;
import dev.guard.ShapedQpsGuard;
import dev.guard.StrategySteps;
import dev.guard.ValueSteps;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A step that several stages offer is declared once, on a stage interface, and still returns the
 * stage it was called on (the assignments below compile only then).
 */
class Issue36StepsTest {

  private static final List<Class<?>> STAGES = List.of(QpsGuard.class, ShapedQpsGuard.class,
      QuotaGuard.class, ConcurrencyGuard.class, PerValueGuard.class, PacedPerValueGuard.class,
      PerValueConcurrencyGuard.class, CircuitBreakerGuard.class, AdaptiveConcurrencyGuard.class,
      OriginSteps.class, StrategySteps.class, ClusterSteps.class, PerInstanceSteps.class,
      ValueSteps.class);

  private static final List<String> SHARED = List.of("fromOrigin", "relatedTo", "fromEntrance",
      "cluster", "clusterWide", "perInstance", "except", "valueType", "maxValues");

  @Test
  void sharedSteps_areEachDeclaredOnce() {
    Map<String, Integer> declarations = new TreeMap<>();
    for (Class<?> stage : STAGES) {
      Arrays.stream(stage.getDeclaredMethods())
          .filter(m -> Modifier.isPublic(m.getModifiers()) && !m.isSynthetic() && !m.isBridge())
          .map(Method::getName)
          .filter(SHARED::contains)
          .forEach(name -> declarations.merge(name, 1, Integer::sum));
    }

    assertThat(declarations.values()).hasSize(SHARED.size()).containsOnly(1);
  }

  @Test
  void sharedFlowSteps_returnTheStageTheyWereCalledOn() {
    QpsGuard qps = Guard.of("r").qps(5).fromOrigin("mobile").relatedTo("other").perInstance();
    ShapedQpsGuard shaped = Guard.of("r").qps(5).warmUp(Duration.ofSeconds(1))
        .fromEntrance("nightly").fromOrigin("mobile");
    QuotaGuard quota = Guard.of("r").qps(5).quota(10, Duration.ofMinutes(1))
        .fromOrigin("mobile").clusterWide().quota(100, Duration.ofHours(1));
    ConcurrencyGuard concurrency = Guard.of("r").concurrency(4).fromOrigin("mobile")
        .clusterWide();

    FlowRule rule = qps.flowRules().get(0);
    assertThat(rule.origin()).isEqualTo("mobile");
    assertThat(rule.strategy()).isEqualTo(FlowRule.Strategy.RELATED);
    assertThat(shaped.flowRules().get(0).strategy()).isEqualTo(FlowRule.Strategy.ENTRANCE);
    assertThat(quota.flowRules().get(0).cluster()).isNotNull();
    assertThat(Objects.requireNonNull(concurrency.flowRules().get(0).cluster()).flowId()).isEqualTo("r");
  }

  @Test
  void sharedValueSteps_returnTheStageTheyWereCalledOn() {
    PerValueGuard perValue = Guard.of("r").perValue(0, 5).valueType(String.class)
        .except("vip", 50).maxValues(10).clusterWide().burst(2);
    PacedPerValueGuard paced = Guard.of("r").perValue(0, 5).pacing(Duration.ZERO)
        .maxValues(10).period(Duration.ofSeconds(2));
    PerValueConcurrencyGuard concurrency = Guard.of("r").perValueConcurrency(1, 2)
        .except("big", 8).valueType(String.class);

    PerValueRule rule = (PerValueRule) perValue.rules().get(0);
    assertThat(rule.maxValues()).isEqualTo(10);
    assertThat(Objects.requireNonNull(rule.cluster()).flowId()).isEqualTo("r[0]");
    assertThat(paced.rules()).hasSize(1);
    assertThat(concurrency.rules()).hasSize(1);
  }
}
