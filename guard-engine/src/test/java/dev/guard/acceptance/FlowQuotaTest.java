package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.testkit.InMemoryTokenService;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/BEHAVIOUR.md, "Quotas": a flow rule's quotas count in fixed windows starting at the first
 * call, refuse with the time until the window refills, work together, and a refused call counts
 * in none of the resource's limits (its per-second rules, its quotas, its per-value rules).
 */
class FlowQuotaTest {

  private static final long START_NANOS = 1_000_000_000_000_000L;

  private final ManualClock clock = ManualClock.startingAt(START_NANOS);

  private GuardEngine engine(Rule... rules) {
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.apply(engine.ruleSet().withRulesOf("api", List.of(rules)));
    return engine;
  }

  private static boolean call(GuardedResource resource, Object... args) {
    try (Entry ignored = resource.enter(args)) {
      return true;
    } catch (RefusedException refused) {
      return false;
    }
  }

  private static RefusedException refusal(GuardedResource resource) {
    try (Entry ignored = resource.enter()) {
      throw new AssertionError("admitted");
    } catch (RefusedException refused) {
      return refused;
    }
  }

  @Test
  void quota_admitsItsLimitPerWindow_thenRefusesWithTheTimeUntilTheWindowEnds() {
    GuardEngine engine = engine(FlowRule.qps("api", 100).withQuota(3, Duration.ofMinutes(1)));
    GuardedResource api = engine.resource("api");

    clock.advanceMillis(5_000); // the window starts at the first call, not when the rule came
    assertThat(call(api)).isTrue();
    clock.advanceMillis(10_000);
    assertThat(call(api)).isTrue();
    assertThat(call(api)).isTrue();
    clock.advanceMillis(20_000);
    RefusedException refused = refusal(api);

    assertThat(refused).isInstanceOf(RefusedException.Flow.class);
    assertThat(refused.rule()).isEqualTo(engine.ruleSet().rulesOf("api").get(0));
    assertThat(refused.retryAfterMillis()).isEqualTo(60_000 + 1 - 30_000);
    clock.advanceMillis(30_000);
    assertThat(call(api)).as("at exactly one period the window has not ended").isFalse();
    clock.advanceMillis(1);
    assertThat(List.of(call(api), call(api), call(api), call(api)))
        .containsExactly(true, true, true, false);
  }

  @Test
  void severalQuotas_workTogether_andTheRefusalWaitsForTheQuotaThatIsShort() {
    GuardEngine engine = engine(FlowRule.qps("api", 100)
        .withQuota(5, Duration.ofMinutes(1)).withQuota(7, Duration.ofHours(1)));
    GuardedResource api = engine.resource("api");

    int first = 0;
    for (int i = 0; i < 6; i++) {
      first += call(api) ? 1 : 0;
    }
    clock.advanceMillis(60_001);
    int second = 0;
    for (int i = 0; i < 6; i++) {
      second += call(api) ? 1 : 0;
    }

    assertThat(first).isEqualTo(5);
    assertThat(second).as("the hour's 7 less the first minute's 5").isEqualTo(2);
    assertThat(refusal(api).retryAfterMillis()).isEqualTo(3_600_001 - 60_001);
    clock.advanceMillis(3_600_001 - 60_001);
    assertThat(call(api)).isTrue();
  }

  @Test
  void aQuotaRefusal_takesNothingFromTheResourcesPerValueRule() {
    GuardEngine engine = engine(
        PerValueRule.qps("api", 0, 2).withPeriod(Duration.ofMinutes(1)),
        FlowRule.qps("api", 100).withQuota(1, Duration.ofSeconds(10)));
    GuardedResource api = engine.resource("api");

    assertThat(call(api, "a")).isTrue();
    clock.advanceMillis(1_000);
    assertThat(call(api, "a")).as("refused by the flow quota").isFalse();
    clock.advanceMillis(10_000);
    assertThat(call(api, "a")).as("the per-value token came back").isTrue();
    clock.advanceMillis(11_000);
    assertThat(call(api, "a")).as("refused by the per-value rule").isFalse();
    assertThat(call(api, "b")).as("the per-value refusal took no quota").isTrue();
  }

  @Test
  void aLaterRulesRefusal_givesTheQuotaBack() {
    GuardEngine engine = engine(
        FlowRule.qps("api", 100).withOrigin("partner").withQuota(2, Duration.ofMinutes(1)),
        FlowRule.qps("api", 1));
    GuardedResource partner = engine.resource("api").origin("partner");

    assertThat(call(partner)).isTrue();
    assertThat(call(partner)).as("refused by the per-second rule").isFalse();
    clock.advanceMillis(1_000);
    assertThat(call(partner)).as("the quota got its call back").isTrue();
    clock.advanceMillis(1_000);
    assertThat(call(partner)).as("two calls ran this minute").isFalse();
  }

  @Test
  void anEqualRuleReloaded_keepsItsQuota_aChangedOneStartsOver() {
    FlowRule rule = FlowRule.qps("api", 100).withQuota(2, Duration.ofDays(1));
    GuardEngine engine = engine(rule);
    GuardedResource api = engine.resource("api");
    call(api);
    call(api);

    engine.apply(engine.ruleSet().withRulesOf("api", List.of(rule)));
    assertThat(call(api)).isFalse();
    engine.apply(engine.ruleSet().withRulesOf("api", List.of(rule.withThreshold(99))));
    assertThat(call(api)).isTrue();
  }

  @Test
  void aClusterQuota_isSharedByTheInstances_andFallsBackWhenTheServiceIsAway() {
    InMemoryTokenService service = new InMemoryTokenService(clock);
    FlowRule rule = FlowRule.qps("api", 100).withQuota(3, Duration.ofMinutes(1))
        .withCluster(ClusterMode.global("partner-api"));
    InMemoryTokenService.Client client = service.connect("n");
    GuardEngine one = GuardEngine.builder().clock(clock).tokenService(client).build();
    GuardEngine two = GuardEngine.builder().clock(clock).tokenService(service.connect("n"))
        .build();
    one.apply(one.ruleSet().withRulesOf("api", List.of(rule)));
    two.apply(two.ruleSet().withRulesOf("api", List.of(rule)));

    assertThat(List.of(call(one.resource("api")), call(two.resource("api")),
        call(one.resource("api")), call(two.resource("api"))))
        .containsExactly(true, true, true, false);
    clock.advanceMillis(20_000);
    assertThat(refusal(one.resource("api")).retryAfterMillis()).isEqualTo(40_001);

    client.close();
    assertThat(List.of(call(one.resource("api")), call(one.resource("api")),
        call(one.resource("api")), call(one.resource("api"))))
        .as("each instance's own quota decides").containsExactly(true, true, true, false);
  }

  @Test
  void aClusterQuotaWithoutFallback_passesWhenTheServiceIsAway() {
    InMemoryTokenService service = new InMemoryTokenService(clock);
    FlowRule rule = FlowRule.qps("api", 100).withQuota(1, Duration.ofMinutes(1))
        .withCluster(ClusterMode.global("api").withFallbackToLocal(false));
    InMemoryTokenService.Client client = service.connect("n");
    GuardEngine engine = GuardEngine.builder().clock(clock).tokenService(client).build();
    engine.apply(engine.ruleSet().withRulesOf("api", List.of(rule)));
    assertThat(call(engine.resource("api"))).isTrue();
    assertThat(call(engine.resource("api"))).isFalse();

    client.close();
    assertThat(call(engine.resource("api"))).isTrue();
    assertThat(call(engine.resource("api"))).isTrue();
  }

  @Test
  void quotas_onlyOnADirectQpsRuleThatNeitherWarmsUpNorPaces() {
    assertThatThrownBy(() -> FlowRule.concurrency("api", 1).withQuota(1, Duration.ofMinutes(1)))
        .hasMessageStartingWith("quotas must be empty unless the rule has metric QPS");
    assertThatThrownBy(() -> FlowRule.qps("api", 1).withShaping(FlowRule.Shaping.PACING)
        .withQuota(1, Duration.ofMinutes(1)))
        .hasMessageContaining("(was QPS, DIRECT, PACING)");
    assertThatThrownBy(() -> FlowRule.qps("api", 1).withQuota(1, Duration.ofMinutes(1))
        .withWarmUp(Duration.ofSeconds(1), 3))
        .hasMessageContaining("with warm-up");
    assertThatThrownBy(() -> FlowRule.qps("api", 1).withQuota(1, Duration.ofMinutes(1))
        .withStrategy(FlowRule.Strategy.RELATED, "db"))
        .hasMessageContaining("RELATED");
    assertThatThrownBy(() -> FlowRule.qps("api", 1).withQuota(1, Duration.ofMinutes(1))
        .withCluster(ClusterMode.perInstance("api")))
        .hasMessageStartingWith("cluster.threshold must be GLOBAL for a rule with quotas");
    FlowRule eight = FlowRule.qps("api", 1);
    for (int i = 0; i < 8; i++) {
      eight = eight.withQuota(i, Duration.ofMinutes(1));
    }
    FlowRule full = eight;
    assertThatThrownBy(() -> full.withQuota(1, Duration.ofMinutes(1)))
        .hasMessage("quotas must be at most 8, was 9 quotas");
    assertThatThrownBy(() -> FlowRule.qps("api", 1).withQuota(1, Duration.ofDays(2)))
        .hasMessageStartingWith("quotas.period must be whole milliseconds from 1 ms to 1 day");
  }
}
