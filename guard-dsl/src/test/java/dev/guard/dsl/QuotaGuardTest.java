package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.QuotaGuard;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The flow quota stage: {@code qps(..).quota(..)} (docs/FLOW.md, "Quotas"). */
class QuotaGuardTest {

  @Test
  void quotaSteps_addQuotasToTheQpsRule_andKeepScopingAndSharingIt() {
    QuotaGuard guard = Guard.of("partnerApi").qps(50).fromOrigin("partner")
        .quota(1_000, Duration.ofMinutes(1)).quota(50_000, Duration.ofDays(1)).clusterWide();

    assertThat(guard.rules()).containsExactly(FlowRule.qps("partnerApi", 50)
        .withOrigin("partner").withQuota(1_000, Duration.ofMinutes(1))
        .withQuota(50_000, Duration.ofDays(1)).withCluster(ClusterMode.global("partnerApi")));
    assertThat(Guard.of("a").qps(1).quota(1, Duration.ofSeconds(1))
        .cluster(ClusterMode.global("f").withFallbackToLocal(false)).rules())
        .containsExactly(FlowRule.qps("a", 1).withQuota(1, Duration.ofSeconds(1))
            .withCluster(ClusterMode.global("f").withFallbackToLocal(false)));
  }

  @Test
  void aQuotaOnAnotherResourcesRule_orPerInstance_isRefusedAtTheStep() {
    assertThatThrownBy(() -> Guard.of("a").qps(1).relatedTo("b").quota(1, Duration.ofMinutes(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("quotas must be empty unless");
    assertThatThrownBy(() -> Guard.of("a").qps(1).quota(1, Duration.ofMinutes(1))
        .cluster(ClusterMode.perInstance("a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("cluster.threshold must be GLOBAL");
  }

  @Test
  void aDecoratedCall_isRefusedOnceTheQuotaIsSpent_untilItsWindowEnds() {
    ManualClock clock = ManualClock.startingAt(1_000_000_000_000L);
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    Supplier<String> call = Guard.of("report").qps(100).quota(2, Duration.ofHours(1))
        .on(engine).decorate(() -> "ok");

    assertThat(call.get()).isEqualTo("ok");
    clock.advanceMillis(1_000);
    assertThat(call.get()).isEqualTo("ok");
    assertThatThrownBy(call::get).isInstanceOfSatisfying(RefusedException.Flow.class,
        refused -> assertThat(refused.retryAfterMillis()).isEqualTo(3_600_001 - 1_000));
    clock.advanceMillis(3_600_001 - 1_000);
    assertThat(call.get()).isEqualTo("ok");
  }
}
