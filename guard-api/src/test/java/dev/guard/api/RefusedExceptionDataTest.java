package dev.guard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.SystemRule;
import org.junit.jupiter.api.Test;

class RefusedExceptionDataTest {

  @Test
  void systemRefusal_carriesTheLimitAndItsThreshold() {
    SystemRule rule = SystemRule.of().withMaxInboundQps(5000).withMaxCpuUsage(0.8);
    RefusedException.SystemProtection refused = new RefusedException.SystemProtection("orders", rule, SystemRule.Limit.CPU);

    assertThat(refused.limit()).isEqualTo(SystemRule.Limit.CPU);
    assertThat(refused.threshold()).isEqualTo(0.8);
    assertThat(refused.rule()).isEqualTo(rule);
    assertThat(refused.resource()).isEqualTo("orders");
    assertThat(refused).hasMessage("system protection refused a call to 'orders' by "
        + "SystemRule[maxInboundQps=5000.0, maxCpuUsage=0.8] (CPU usage over 0.8)");
    assertThat(refused.getStackTrace()).isEmpty();
  }

  @Test
  void systemRefusal_byAThresholdTheRuleDoesNotSet_isAnError() {
    assertThatThrownBy(() ->
        new RefusedException.SystemProtection("orders", SystemRule.of().withMaxCpuUsage(0.8), SystemRule.Limit.QPS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limit must be a threshold the rule sets, was QPS");
  }

  @Test
  void authorityRefusal_namesTheOrigin() {
    OriginRule rule = OriginRule.deny("admin", "scraper");
    RefusedException.Origin refused = new RefusedException.Origin("admin", rule, "scraper");

    assertThat(refused.origin()).isEqualTo("scraper");
    assertThat(refused.rule()).isEqualTo(rule);
    assertThat(refused).hasMessage("origin rule refused a call to 'admin' by "
        + rule + " (origin 'scraper')");
  }
}
