package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClusterGuardTest {

  @Test
  void clusterSteps_shapeTheLastQpsRule() {
    assertThat(Guard.of("orders").qps(10).clusterWide().rules())
        .containsExactly(FlowRule.qps("orders", 10).withCluster(ClusterMode.global("orders")));
    assertThat(Guard.of("orders").qps(10).perInstance().rules().get(0))
        .extracting(rule -> ((FlowRule) rule).cluster().threshold())
        .isEqualTo(ClusterMode.Threshold.PER_INSTANCE);
    ClusterMode mode = ClusterMode.global("all-orders").withFallbackToLocal(false);
    assertThat(Guard.of("orders").qps(10).cluster(mode).rules())
        .containsExactly(FlowRule.qps("orders", 10).withCluster(mode));
  }

  @Test
  void clusterWide_onConcurrency_makesAClusterConcurrencyRule() {
    assertThat(Guard.of("export").concurrency(3).clusterWide().rules())
        .containsExactly(FlowRule.concurrency("export", 3).withCluster(ClusterMode.global("export")));
  }

  @Test
  void shapingAClusterRule_isRefusedNamingTheField() {
    // clusterWide() after warmUp(..) does not compile (StageOrderCompileTest)
    assertThatThrownBy(() -> Guard.of("orders").qps(10).clusterWide().pacing(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("shaping must be REFUSE for a cluster rule")
        .hasMessageContaining("PACING");
  }

  @Test
  void clusterMode_validatesItsFields() {
    assertThatThrownBy(() -> ClusterMode.global(" "))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("flowId");
    assertThatThrownBy(() -> ClusterMode.global("x").withWindow(3, java.time.Duration.ofMillis(1000)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("window");
    assertThatThrownBy(() -> FlowRule.qps("r", 1).withWarmUp(Duration.ofSeconds(1), 3)
        .withCluster(ClusterMode.global("x")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("warmUp");
  }

  @Test
  void clusterMode_flowIdWithABrace_isRefusedNamingIt() {
    assertThatThrownBy(() -> ClusterMode.global("orders}x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("flowId must not contain '{' or '}'")
        .hasMessageEndingWith("was orders}x");
    assertThatThrownBy(() -> ClusterMode.perInstance("{orders"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("{orders");
  }
}
