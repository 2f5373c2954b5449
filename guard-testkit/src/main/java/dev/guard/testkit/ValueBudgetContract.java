package dev.guard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.spi.TokenService;
import dev.guard.spi.TokenService.Result.Status;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The per-value and quota part of the {@link TokenServiceContract}: each value's own buckets
 * shared by every instance, refills a full period after the first grant, burst and exception
 * values, several quotas working together, and the quotas of cluster flow rules; a refused
 * request takes from no bucket, a give-back returns to every one. Always exact, leased mode or
 * not, so these tests ignore {@link #exact()}.
 */
abstract class ValueBudgetContract extends ConcurrencyContract {

  @Test
  void valueToken_eachValueHasItsOwnBucket_sharedByEveryInstance() {
    TokenService a = join(0);
    TokenService b = join(0);
    PerValueRule rule = perValue(3);
    assertThat(valueGrants(a, rule, "alice", 2)).isEqualTo(2);
    assertThat(valueGrants(b, rule, "alice", 5)).isEqualTo(1);
    assertThat(valueGrants(b, rule, "bob", 5)).isEqualTo(3);
    assertThat(valueGrants(a, rule, 42, 5)).as("a value is its String.valueOf").isEqualTo(3);
    assertThat(valueGrants(b, rule, "42", 1)).isZero();
  }

  @Test
  void valueToken_refillsOnceAFullPeriodHasPassed_andARefusalSaysWhen() {
    TokenService one = join(0);
    PerValueRule rule = perValue(3).withBurst(1);
    assertThat(valueGrants(one, rule, "alice", 9)).as("threshold + burst").isEqualTo(4);
    clock.advance(Duration.ofSeconds(4));
    TokenService.Result refused = one.requestValueToken(rule, "alice", 1);
    assertThat(refused.status()).isEqualTo(Status.REFUSED);
    assertThat(refused.waitMs()).as("more than a full period after the first grant")
        .isEqualTo(6_001);
    clock.advance(Duration.ofMillis(6_000));
    assertThat(valueGrants(one, rule, "alice", 1)).as("exactly one period later").isZero();
    clock.advance(Duration.ofMillis(1));
    assertThat(valueGrants(one, rule, "alice", 9)).as("10,001 ms earn 3 tokens").isEqualTo(3);
  }

  @Test
  void valueToken_exceptionValues_haveTheirOwnThreshold() {
    TokenService one = join(0);
    PerValueRule rule = perValue(2).withException("vip", 5).withException("banned", 0);
    assertThat(valueGrants(one, rule, "vip", 9)).isEqualTo(5);
    assertThat(valueGrants(one, rule, "someone", 9)).isEqualTo(2);
    TokenService.Result banned = one.requestValueToken(rule, "banned", 1);
    assertThat(banned.status()).isEqualTo(Status.REFUSED);
    assertThat(banned.waitMs()).as("never: no retry time").isZero();
  }

  @Test
  void valueToken_severalQuotas_workTogether_andARefusedRequestTakesFromNone() {
    TokenService a = join(0);
    TokenService b = join(0);
    // 5 per 10 s and 7 per 100 s for every value
    PerValueRule rule = perValue(5).withQuota(7, Duration.ofSeconds(100));
    assertThat(valueGrants(a, rule, "key", 9)).isEqualTo(5);
    clock.advance(Duration.ofSeconds(11));
    assertThat(b.requestValueToken(rule, "key", 3).status()).as("the quota has 2 left")
        .isEqualTo(Status.REFUSED);
    assertThat(valueGrants(b, rule, "key", 9)).as("the refused 3 took nothing").isEqualTo(2);
    TokenService.Result refused = a.requestValueToken(rule, "key", 1);
    assertThat(refused.status()).isEqualTo(Status.REFUSED);
    assertThat(refused.waitMs()).as("the quota refills 100,001 ms after the first grant")
        .isEqualTo(100_001 - 11_000);
    clock.advance(Duration.ofMillis(100_001 - 11_000));
    assertThat(valueGrants(a, rule, "key", 9)).as("both buckets full again").isEqualTo(5);
  }

  @Test
  void valueToken_givenBack_returnsToEveryBucketOfTheValue() {
    TokenService one = join(0);
    PerValueRule rule = perValue(2).withQuota(3, Duration.ofSeconds(100));
    assertThat(valueGrants(one, rule, "key", 2)).isEqualTo(2);
    one.giveBackValue(rule, "key", 2);
    assertThat(valueGrants(one, rule, "key", 9)).as("both buckets have them back (else the"
        + " quota's 1 left)").isEqualTo(2);
    one.giveBackValue(rule, "unknown", 1); // ignored, does not throw
  }

  @Test
  void valueToken_withoutClusterMode_withoutPermits_orClosed_isFailed() throws Exception {
    TokenService one = join(0);
    assertThat(one.requestValueToken(PerValueRule.qps("contract", 0, 1), "key", 1).status())
        .isEqualTo(Status.FAILED);
    assertThat(one.requestValueToken(perValue(1), "key", 0).status()).isEqualTo(Status.FAILED);
    close(one);
    assertThat(one.requestValueToken(perValue(1), "key", 1).status()).isEqualTo(Status.FAILED);
    one.giveBackValue(perValue(1), "key", 1); // ignored, does not throw
  }

  @Test
  void quota_sharedByEveryInstance_windowFromTheFirstGrant_andARefusalSaysWhenItRefills() {
    TokenService a = join(0);
    TokenService b = join(0);
    FlowRule rule = quotaRule(3, 7);
    clock.advance(Duration.ofSeconds(5));
    assertThat(quotaGrants(a, rule, 2)).isEqualTo(2);
    assertThat(quotaGrants(b, rule, 5)).as("3 per minute between them").isEqualTo(1);
    clock.advance(Duration.ofSeconds(20));
    TokenService.Result refused = b.requestQuota(rule, 1);
    assertThat(refused.status()).isEqualTo(Status.REFUSED);
    assertThat(refused.waitMs()).as("more than a minute after the first grant")
        .isEqualTo(60_001 - 20_000);
    clock.advance(Duration.ofMillis(40_000));
    assertThat(quotaGrants(a, rule, 1)).as("exactly one minute later").isZero();
    clock.advance(Duration.ofMillis(1));
    assertThat(quotaGrants(a, rule, 9)).as("the hour's 7 less the first minute's 3")
        .isEqualTo(3);
    clock.advance(Duration.ofMillis(60_001));
    assertThat(quotaGrants(b, rule, 9)).as("the hour's last one").isEqualTo(1);
    TokenService.Result hour = b.requestQuota(rule, 1);
    assertThat(hour.waitMs()).as("the hour refills 3,600,001 ms after the first grant")
        .isEqualTo(5_000 + 3_600_001 - 125_002);
  }

  @Test
  void quota_aRefusedRequestTakesFromNone_andAGiveBackReturnsToEvery() {
    TokenService one = join(0);
    FlowRule rule = quotaRule(5, 6);
    assertThat(quotaGrants(one, rule, 4)).isEqualTo(4);
    clock.advance(Duration.ofSeconds(61));
    assertThat(one.requestQuota(rule, 3).status()).as("the hour has 2 left")
        .isEqualTo(Status.REFUSED);
    assertThat(one.requestQuota(rule, 2).status()).as("the refused 3 took nothing")
        .isEqualTo(Status.OK);
    one.giveBackQuota(rule, 2);
    assertThat(quotaGrants(one, rule, 9)).as("both quotas have them back").isEqualTo(2);
    assertThat(one.requestQuota(rule, 6).status()).as("more than the minute's limit: never")
        .isEqualTo(Status.REFUSED);
    assertThat(one.requestQuota(rule, 6).waitMs()).isZero();
  }

  @Test
  void quota_withoutClusterMode_withoutQuotas_withoutPermits_orClosed_isFailed()
      throws Exception {
    TokenService one = join(0);
    assertThat(one.requestQuota(FlowRule.qps("contract", 1).withQuota(1, Duration.ofMinutes(1)),
        1).status()).isEqualTo(Status.FAILED);
    assertThat(one.requestQuota(rule(1), 1).status()).isEqualTo(Status.FAILED);
    assertThat(one.requestQuota(quotaRule(1, 1), 0).status()).isEqualTo(Status.FAILED);
    close(one);
    assertThat(one.requestQuota(quotaRule(1, 1), 1).status()).isEqualTo(Status.FAILED);
    one.giveBackQuota(quotaRule(1, 1), 1); // ignored, does not throw
  }

  /**
   * The suite's cluster flow rule with quotas: {@code perMinute} a minute and {@code perHour} an
   * hour, besides 1,000 a second.
   *
   * @param perMinute the minute's limit
   * @param perHour the hour's limit
   * @return the rule
   */
  protected static FlowRule quotaRule(int perMinute, int perHour) {
    return FlowRule.qps("contract", 1_000).withQuota(perMinute, Duration.ofMinutes(1))
        .withQuota(perHour, Duration.ofHours(1))
        .withCluster(ClusterMode.global(FLOW_ID + "-quotas"));
  }

  /** Asks {@code calls} times for one call of a rule's quotas; returns how many were granted. */
  static int quotaGrants(TokenService service, FlowRule rule, int calls) {
    int ok = 0;
    for (int i = 0; i < calls; i++) {
      TokenService.Result answer = service.requestQuota(rule, 1);
      assertThat(answer.status()).isIn(Status.OK, Status.REFUSED);
      if (answer.status() == Status.OK) {
        ok++;
      }
    }
    return ok;
  }

  /**
   * The suite's cluster per-value rule: {@code count} per 10 s for each value of argument 0.
   *
   * @param count tokens per period
   * @return the rule
   */
  protected static PerValueRule perValue(int count) {
    return PerValueRule.qps("contract", 0, count).withPeriod(WINDOW)
        .withCluster(ClusterMode.global(FLOW_ID + "-values"));
  }

  /** Asks {@code calls} times for one token of a value; returns how many were granted. */
  static int valueGrants(TokenService service, PerValueRule rule, Object value,
      int calls) {
    int ok = 0;
    for (int i = 0; i < calls; i++) {
      TokenService.Result answer = service.requestValueToken(rule, value, 1);
      assertThat(answer.status()).isIn(Status.OK, Status.REFUSED);
      if (answer.status() == Status.OK) {
        ok++;
      }
    }
    return ok;
  }
}
