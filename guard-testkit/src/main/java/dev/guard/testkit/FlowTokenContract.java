package dev.guard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.spi.TokenService;
import dev.guard.spi.TokenService.Result.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The flow-token part of the {@link TokenServiceContract}: counts per window and per bucket, the
 * window sliding bucket by bucket, prioritized waits in the next bucket, per-instance thresholds
 * and the instances that stop counting, the namespace request limit, grants given back to the
 * bucket that counted them, and instances whose rule versions differ.
 *
 * <p>Every rule here counts 1 per second over the suite's 10 s window in 10 buckets (10 permits
 * per window), so a test's expectations are whole numbers of permits.
 */
abstract class FlowTokenContract extends ContractFixture {

  @Test
  void requestToken_grantsUntilTheWindowIsFull_thenBlocks() {
    TokenService one = join(0);
    TokenService.Result first = one.requestToken(rule(1), 1, false);
    assertThat(first.status()).isEqualTo(Status.OK);
    assertThat(first.remaining()).isIn(exact() ? List.of(9L) : List.of(9L, -1L));
    expect(1 + untilRefused(one, rule(1)), 10);
  }

  @Test
  void requestToken_ofTwoInstances_sharesOneWindow() {
    TokenService a = join(0);
    TokenService b = join(0);
    assertThat(granted(a, rule(1), 6)).isEqualTo(6);
    expect(untilRefused(b, rule(1)), 4);
  }

  @Test
  void requestToken_windowSlides_bucketByBucket() {
    TokenService one = join(0);
    int atStart = granted(one, rule(1), 5);
    clock.advance(Duration.ofSeconds(5));
    int atFive = untilRefused(one, rule(1));
    clock.advance(Duration.ofSeconds(5)); // the first bucket has left the window
    int atTen = untilRefused(one, rule(1));
    if (exact()) {
      assertThat(List.of(atStart, atFive, atTen)).containsExactly(5, 5, 5);
    }
    assertThat(atStart + atFive).isLessThanOrEqualTo(10);
    assertThat(atFive + atTen).isLessThanOrEqualTo(10);
  }

  @Test
  void prioritized_takesFromTheNextBucket_andWaitsUntilItStarts() {
    TokenService one = join(0);
    expect(untilRefused(one, rule(1)), 10);
    assertThat(one.requestToken(rule(1), 1, true).status())
        .as("the bucket that slides out next is empty").isEqualTo(Status.REFUSED);
    clock.advance(Duration.ofSeconds(9)); // the full bucket slides out in 1 s
    assertThat(one.requestToken(rule(1), 1, false).status()).isEqualTo(Status.REFUSED);
    List<Long> waits = new ArrayList<>();
    TokenService.Result answer;
    while ((answer = one.requestToken(rule(1), 1, true)).status() == Status.SHOULD_WAIT) {
      waits.add(answer.waitMs());
    }
    assertThat(answer.status()).isEqualTo(Status.REFUSED);
    assertThat(waits).as("the 10 passes that slide out make room").hasSize(10);
    assertThat(waits).containsOnly(1000L);
    clock.advance(Duration.ofSeconds(1));
    assertThat(one.requestToken(rule(1), 1, false).status())
        .as("the permits taken ahead are the new bucket's passes").isEqualTo(Status.REFUSED);
  }

  @Test
  void perInstance_multipliesByInstances_andAClosedInstanceStopsCounting() throws Exception {
    FlowRule perInstance = FlowRule.qps("contract", 0.5).withCluster(
        ClusterMode.perInstance(FLOW_ID).withWindow(10, WINDOW)); // 5 per window and instance
    TokenService a = join(0);
    TokenService b = join(0);
    assertThat(a.requestToken(perInstance, 1, false).status()).isEqualTo(Status.OK);
    assertThat(b.requestToken(perInstance, 1, false).status()).isEqualTo(Status.OK);
    expect(untilRefused(a, perInstance), 8);
    close(b);
    clock.advance(instanceExpiry().plus(WINDOW).plusSeconds(1));
    expect(untilRefused(a, perInstance), 5);
  }

  @Test
  void namespaceLimit_answersTooManyRequests_beyondItsRequestsPerSecond() {
    TokenService one = join(5);
    for (int i = 0; i < 5; i++) {
      assertThat(one.requestToken(rule(1), 1, true).status()).isEqualTo(Status.OK);
    }
    assertThat(one.requestToken(rule(1), 1, true).status()).isEqualTo(Status.TOO_MANY_REQUESTS);
    assertThat(one.acquireConcurrency(concurrency(2), 1).status())
        .isEqualTo(Status.TOO_MANY_REQUESTS);
    clock.advance(Duration.ofSeconds(1));
    assertThat(one.requestToken(rule(1), 1, true).status()).isEqualTo(Status.OK);
  }

  @Test
  void giveBack_returnsThePermitsToTheWindow() {
    TokenService one = join(0);
    List<TokenService.Result> grants = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      grants.add(one.requestToken(rule(1), 1, false));
    }
    assertThat(grants).extracting(TokenService.Result::status).containsOnly(Status.OK);
    for (TokenService.Result grant : grants.subList(7, 10)) {
      one.giveBack(rule(1), 1, grant);
    }
    assertThat(untilRefused(one, rule(1))).isEqualTo(3);
  }

  @Test
  void giveBack_takesThePermitsFromTheBucketThatCountedThem() {
    TokenService one = join(0);
    List<TokenService.Result> grants = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      grants.add(one.requestToken(rule(1), 1, false));
    }
    clock.advance(Duration.ofSeconds(5));
    for (TokenService.Result grant : grants.subList(0, 5)) {
      one.giveBack(rule(1), 1, grant);
    }
    int atFive = untilRefused(one, rule(1));
    clock.advance(Duration.ofSeconds(5)); // the first bucket leaves with the 5 kept passes
    int atTen = untilRefused(one, rule(1));
    if (exact()) {
      assertThat(List.of(atFive, atTen)).containsExactly(5, 5);
    }
    assertThat(atFive + atTen).as("passes of the window ending at 10 s").isLessThanOrEqualTo(10);
  }

  @Test
  void giveBack_ofAPrioritizedGrant_freesItsPlaceInTheNextBucket() {
    TokenService one = join(0);
    expect(untilRefused(one, rule(1)), 10);
    clock.advance(Duration.ofSeconds(9));
    TokenService.Result ahead = one.requestToken(rule(1), 1, true);
    assertThat(ahead.status()).isEqualTo(Status.SHOULD_WAIT);
    one.giveBack(rule(1), 1, ahead);
    int waiting = 0;
    while (one.requestToken(rule(1), 1, true).status() == Status.SHOULD_WAIT) {
      waiting++;
    }
    assertThat(waiting).isEqualTo(10);
  }

  @Test
  void versions_withOtherWindows_neverResetEachOther_andCountEachOthersPasses() {
    FlowRule shorter = FlowRule.qps("contract", 1)
        .withCluster(ClusterMode.global(FLOW_ID).withWindow(5, Duration.ofSeconds(5)));
    TokenService old = join(0);
    TokenService updated = join(0);
    assertThat(old.requestToken(rule(1), 1, false).status()).isEqualTo(Status.OK);
    assertThat(updated.requestToken(shorter, 1, false).status()).isEqualTo(Status.OK);
    expect(untilRefused(old, rule(1)), 8);
    assertThat(updated.requestToken(shorter, 1, false).status())
        .as("its 5 s window counts the other version's passes").isEqualTo(Status.REFUSED);
    assertThat(old.requestToken(rule(1), 1, false).status())
        .as("the other version's request did not reset the window").isEqualTo(Status.REFUSED);
    clock.advance(Duration.ofSeconds(5)); // the first bucket leaves the 5 s window only
    expect(untilRefused(updated, shorter), 5);
    assertThat(old.requestToken(rule(1), 1, false).status()).isEqualTo(Status.REFUSED);
  }

  @Test
  void versions_aVersionThatAppears_startsWithThePassesTheOthersCounted() {
    FlowRule shorter = FlowRule.qps("contract", 1)
        .withCluster(ClusterMode.global(FLOW_ID).withWindow(5, Duration.ofSeconds(5)));
    TokenService old = join(0);
    TokenService updated = join(0);
    assertThat(granted(old, rule(1), 4)).isEqualTo(4);
    clock.advance(Duration.ofSeconds(2));
    assertThat(granted(old, rule(1), 2)).isEqualTo(2);
    assertThat(untilRefused(updated, shorter))
        .as("its window starts with the 6 passes of the last 5 s").isZero();
    clock.advance(Duration.ofSeconds(5)); // the seeded passes leave with the bucket they were put in
    expect(untilRefused(updated, shorter), 5);
  }

  @Test
  void versions_withOtherCounts_shareTheWindow_eachUpToItsOwnCapacity() {
    TokenService generous = join(0);
    TokenService strict = join(0);
    assertThat(granted(strict, rule(0.5), 1)).isEqualTo(1); // 5 per window
    assertThat(granted(generous, rule(1), 4)).isEqualTo(4); // 10 per window
    assertThat(strict.requestToken(rule(0.5), 1, false).status()).isEqualTo(Status.REFUSED);
    expect(untilRefused(generous, rule(1)), 5);
  }
}
