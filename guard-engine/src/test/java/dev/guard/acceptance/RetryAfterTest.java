package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.ContextScope;
import dev.guard.api.Entry;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link RefusedException#retryAfter()} per rule kind against its formula (docs/BEHAVIOUR.md,
 * "Retry after"), on the manual clock with the default second window (2 buckets of 500 ms). The
 * wait is read from the rule's state when asked, so each test reads it at a known time.
 */
class RetryAfterTest {

  private final Scenario s = new Scenario();

  /** The refusal of one call at the current time, or null when it passes. */
  private RefusedException refusal(String resource, EntryType type) {
    try (Entry ignored = s.engine.resource(resource).entryType(type).enter()) {
      return null;
    } catch (RefusedException refused) {
      return refused;
    }
  }

  private RefusedException refusalAfter(String resource, int passes) {
    for (int i = 0; i < passes; i++) {
      assertThat(refusal(resource, EntryType.IN)).as("call %d passes", i).isNull();
    }
    RefusedException refused = refusal(resource, EntryType.IN);
    assertThat(refused).as("call %d is refused", passes).isNotNull();
    return refused;
  }

  @Test
  void qpsReject_untilTheNextBucketOfTheSecondWindow() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 5))));

    RefusedException refused = refusalAfter("R", 5);
    assertThat(refused).isInstanceOf(RefusedException.Flow.class);
    assertThat(refused.retryAfter()).contains(Duration.ofMillis(500));
    s.at(200);
    assertThat(refused.retryAfter()).contains(Duration.ofMillis(300));
    assertThat(refused.retryAfterMillis()).isEqualTo(300);
    s.at(700);
    assertThat(refusal("R", EntryType.IN)).isSameAs(refused);
    assertThat(refused.retryAfter()).contains(Duration.ofMillis(300));
    s.at(1000);
    assertThat(refusal("R", EntryType.IN)).as("the retry at the announced time passes").isNull();
  }

  @Test
  void warmUpReject_untilTheNextBucket() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 30).withWarmUp(Duration.ofSeconds(10), 3))));
    s.at(100);

    RefusedException refused = refusalAfter("R", 10);
    assertThat(refused.retryAfter()).contains(Duration.ofMillis(400));
  }

  @Test
  void sparseRate_untilTheSpacingSinceTheLastAdmission() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 0.5))));

    RefusedException refused = refusalAfter("R", 1);
    assertThat(refused.retryAfter()).contains(Duration.ofSeconds(2));
    s.at(1500);
    assertThat(refused.retryAfter()).contains(Duration.ofMillis(500));
    s.at(2000);
    assertThat(refused.retryAfter()).contains(Duration.ZERO);
  }

  @Test
  void pacing_untilACallFitsInTheQueue() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 10).withShaping(FlowRule.Shaping.PACING)
        .withMaxQueueingTime(Duration.ofMillis(500)))));

    RefusedException refused = refusalAfter("R", 6); // slots 0, 100, ..., 500 ms
    // latest slot 500 + cost 100 - queue 500 - now 0
    assertThat(refused.retryAfter()).contains(Duration.ofMillis(100));
    s.at(40);
    assertThat(refused.retryAfter()).contains(Duration.ofMillis(60));
    s.at(100);
    assertThat(refused.retryAfter()).contains(Duration.ZERO);
    assertThat(refusal("R", EntryType.IN)).as("the retry at the announced time passes").isNull();
  }

  @Test
  void concurrencyAndZeroLimits_unknown() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("C", List.of(FlowRule.concurrency("C", 1))));
    s.engine.apply(s.engine.ruleSet().withRulesOf("Z", List.of(FlowRule.qps("Z", 0))));
    s.engine.apply(s.engine.ruleSet().withRulesOf("P", List.of(FlowRule.qps("P", 0).withShaping(FlowRule.Shaping.PACING))));

    try (Entry held = s.engine.resource("C").enter()) {
      RefusedException refused = refusal("C", EntryType.OUT);
      assertThat(refused.retryAfter()).isEmpty();
      assertThat(refused.retryAfterMillis()).isEqualTo(-1);
    }
    assertThat(refusalAfter("Z", 0).retryAfter()).isEmpty();
    assertThat(refusalAfter("P", 0).retryAfter()).isEmpty();
  }

  @Test
  void systemQps_untilTheNextBucketOfTheInboundWindow_concurrencyUnknown() {
    s.engine.apply(s.engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxInboundQps(2))));
    s.at(150);

    RefusedException refused = refusalAfter("R", 2);
    assertThat(refused).isInstanceOf(RefusedException.SystemProtection.class);
    assertThat(refused.retryAfter()).contains(Duration.ofMillis(350));

    s.engine.apply(s.engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxConcurrency(1))));
    s.at(5000);
    try (Entry held = s.engine.resource("R").entryType(EntryType.IN).enter()) {
      assertThat(refusal("R", EntryType.IN).retryAfter()).isEmpty();
    }
  }

  @Test
  void authority_unknown() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(OriginRule.deny("R", "bad"))));

    try (ContextScope ignored = s.engine.resource("web").context("web", "bad").openContext()) {
      RefusedException refused = refusal("R", EntryType.IN);
      assertThat(refused.retryAfter()).isEqualTo(Optional.empty());
    }
  }
}
