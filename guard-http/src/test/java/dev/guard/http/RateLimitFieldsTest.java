package dev.guard.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.Quota;
import dev.guard.engine.GuardedResource.Budget;
import dev.guard.engine.GuardedResource.Budget.Policy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@link InboundGate.RateLimitFields} names and writes a budget's policies (docs/HTTP.md). */
class RateLimitFieldsTest {

  private static final Quota HALF_SECOND = new Quota(10, Duration.ofMillis(500));

  @Test
  void of_namesQuotasByPeriod_andNumbersANameThatWouldRepeat() {
    FlowRule everyone = FlowRule.qps("R", 50).withQuotas(List.of(HALF_SECOND));
    FlowRule again = FlowRule.qps("R", 20);
    Budget budget = new Budget(List.of(
        new Policy(everyone, null, 50, Duration.ofSeconds(1), 40, Duration.ofMillis(200)),
        new Policy(everyone, HALF_SECOND, 10, Duration.ofSeconds(1), 2, Duration.ofMillis(300)),
        new Policy(again, null, 20, Duration.ofSeconds(1), 19, Duration.ofMillis(200))));

    InboundGate.RateLimitFields fields = InboundGate.RateLimitFields.of(budget);

    assertThat(fields.policy()).isEqualTo(
        "\"resource\";q=50;w=1, \"resource-500ms\";q=10;w=1, \"resource-2\";q=20;w=1");
    assertThat(fields.rateLimit()).isEqualTo("\"resource-500ms\";r=2;t=1");
  }
}
