package dev.guard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.spi.TokenService;
import dev.guard.spi.TokenService.Result.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The decisions every {@link TokenService} makes, written once as a JUnit 5 suite that any
 * backend runs (docs/BEHAVIOUR.md, "Cluster flow control", "One contract for every token
 * service"): counts per window and per bucket, prioritized waits, per-instance thresholds and the
 * instances that stop counting, concurrency tokens and their expiry, the namespace request limit,
 * giving grants back, instances whose rule versions differ, closing, and the buckets of cluster
 * per-value rules (each value's own, shared by every instance, with burst, exception values and
 * quotas, refused requests taking from no bucket; always exact, leased mode or not).
 *
 * <p>A backend's test extends this class and says how to build one namespace of the backend whose
 * windows run on the given {@link ManualClock}:
 *
 * <pre>{@code
 * class JdbcTokenServiceContractTest extends TokenServiceContract {
 *   @Override
 *   protected Cluster cluster(ManualClock clock, int maxRequestsPerSecond) {
 *     String namespace = "contract-" + UUID.randomUUID();
 *     return () -> JdbcTokenService.builder(dataSource, namespace).clock(clock).build();
 *   }
 * }
 * }</pre>
 *
 * <p>The suite's rules count {@code 1} per second over a window of 10 s in 10 buckets (10 permits
 * per window, 1 s per bucket), so that real time passing during a test (a network round trip, a
 * slow machine) never matters; every change of time is a {@link ManualClock#advance}. The clock
 * starts at 1,000,000 s, a whole second. A backend that takes permits ahead of the calls that
 * spend them (leased mode) says so with {@link #exact()}: the suite then checks that it admits no
 * more than the exact decisions, instead of exactly as many.
 *
 * <p>The class has more than the usual number of lines because it is one suite: each test checks
 * one clause of the contract, and splitting it would make a backend extend several classes.
 */
public abstract class TokenServiceContract {

  /** The flow id of the suite's rules. */
  protected static final String FLOW_ID = "contract";

  /** The suite's window: 10 s in 10 buckets of 1 s. */
  protected static final Duration WINDOW = Duration.ofSeconds(10);

  private static final long START_NANOS = 1_000_000_000_000_000L;

  /** The instances of one namespace of the backend under test, all sharing its limits. */
  @FunctionalInterface
  public interface Cluster {

    /**
     * Connects a new instance to the namespace. It must be ready to decide when returned (a
     * backend that connects in the background waits here until it is connected).
     *
     * @return the instance's token service; the suite closes it (if it is {@link AutoCloseable})
     *     at the end of each test
     */
    TokenService join();
  }

  private final ManualClock clock = ManualClock.startingAt(START_NANOS);
  private final List<TokenService> joined = new ArrayList<>();
  private Cluster cluster = this::noCluster;

  /** Creates the suite. */
  protected TokenServiceContract() {}

  /**
   * Builds a fresh namespace of the backend (no state shared with other tests) whose windows,
   * instance expiry and concurrency tokens run on {@code clock}.
   *
   * @param clock the time of every decision
   * @param maxRequestsPerSecond the namespace's request limit per second; {@code 0} for none (a
   *     backend that always has one uses its default, which must be well above 100)
   * @return the namespace
   */
  protected abstract Cluster cluster(ManualClock clock, int maxRequestsPerSecond);

  /**
   * Whether every permit the backend counts in a window was granted to a call. False for a
   * backend that takes permits ahead (leased mode): it is then held to admitting no more than the
   * exact decisions. Default: true.
   *
   * @return whether the backend's counts are exact
   */
  protected boolean exact() {
    return true;
  }

  /**
   * How long an instance that stopped asking (closed) still counts for per-instance thresholds.
   * Default: zero (it stops counting when it closes).
   *
   * @return the instance expiry
   */
  protected Duration instanceExpiry() {
    return Duration.ZERO;
  }

  /**
   * The suite's QPS rule: {@code count} per second over the suite's window, for the whole cluster.
   *
   * @param count permits per second
   * @return the rule
   */
  protected static FlowRule rule(double count) {
    return FlowRule.qps("contract", count)
        .withCluster(ClusterMode.global(FLOW_ID).withWindow(10, WINDOW));
  }

  /** Closes every instance the test joined. */
  @AfterEach
  void leave() throws Exception {
    for (TokenService service : joined) {
      if (service instanceof AutoCloseable closeable) {
        closeable.close();
      }
    }
  }

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
  void concurrency_tokensAreHeldUpToTheThreshold_andGivenBack() {
    FlowRule two = concurrency(2);
    TokenService a = join(0);
    TokenService b = join(0);
    TokenService.Result held = a.acquireConcurrency(two, 1);
    assertThat(held.status()).isEqualTo(Status.OK);
    assertThat(b.acquireConcurrency(two, 1).status()).isEqualTo(Status.OK);
    assertThat(a.acquireConcurrency(two, 1).status()).isEqualTo(Status.REFUSED);
    assertThat(a.releaseConcurrency(held.tokenId())).isTrue();
    assertThat(a.releaseConcurrency(held.tokenId())).as("given back once").isFalse();
    assertThat(b.acquireConcurrency(two, 1).status()).isEqualTo(Status.OK);
  }

  @Test
  void concurrency_tokensOfAHolderThatNeverGivesThemBack_expireWithTheirLease() {
    FlowRule two = concurrency(2);
    TokenService dead = join(0);
    TokenService alive = join(0);
    assertThat(dead.acquireConcurrency(two, 2).status()).isEqualTo(Status.OK);
    assertThat(alive.acquireConcurrency(two, 1).status()).isEqualTo(Status.REFUSED);
    clock.advance(Duration.ofSeconds(61)); // the lease is 60 s
    assertThat(alive.acquireConcurrency(two, 2).status()).isEqualTo(Status.OK);
  }

  @Test
  void concurrency_closingAnInstance_givesItsTokensBack() throws Exception {
    FlowRule two = concurrency(2);
    TokenService leaving = join(0);
    TokenService staying = join(0);
    assertThat(leaving.acquireConcurrency(two, 2).status()).isEqualTo(Status.OK);
    close(leaving);
    assertThat(staying.acquireConcurrency(two, 2).status()).isEqualTo(Status.OK);
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

  @Test
  void close_answersFailed_andIgnoresWhatComesAfter() throws Exception {
    TokenService one = join(0);
    TokenService.Result grant = one.requestToken(rule(1), 1, false);
    close(one);
    assertThat(one.requestToken(rule(1), 1, false).status()).isEqualTo(Status.FAILED);
    assertThat(one.acquireConcurrency(concurrency(2), 1).status()).isEqualTo(Status.FAILED);
    assertThat(one.releaseConcurrency(1)).isFalse();
    one.giveBack(rule(1), 1, grant); // ignored, does not throw
  }

  @Test
  void requests_withoutClusterMode_orWithoutPermits_areFailed() {
    TokenService one = join(0);
    assertThat(one.requestToken(FlowRule.qps("contract", 1), 1, false).status())
        .isEqualTo(Status.FAILED);
    assertThat(one.requestToken(rule(1), 0, false).status()).isEqualTo(Status.FAILED);
    assertThat(one.acquireConcurrency(concurrency(2), 0).status()).isEqualTo(Status.FAILED);
  }

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
  private static int quotaGrants(TokenService service, FlowRule rule, int calls) {
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
  private static int valueGrants(TokenService service, PerValueRule rule, Object value,
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

  /** A cluster concurrency rule: {@code count} at once, tokens living 60 s. */
  private static FlowRule concurrency(int count) {
    return FlowRule.concurrency("contract", count).withCluster(
        ClusterMode.global(FLOW_ID + "-concurrency").withLeaseTime(Duration.ofSeconds(60)));
  }

  /** Joins the test's namespace (built on first use with the given request limit). */
  private TokenService join(int maxRequestsPerSecond) {
    if (joined.isEmpty()) {
      cluster = cluster(clock, maxRequestsPerSecond);
    }
    TokenService service = cluster.join();
    joined.add(service);
    return service;
  }

  private TokenService noCluster() {
    throw new IllegalStateException("no namespace yet");
  }

  private static void close(TokenService service) throws Exception {
    if (service instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  /** Asks {@code calls} times for one permit; returns how many were granted at once. */
  private static int granted(TokenService service, FlowRule rule, int calls) {
    int ok = 0;
    for (int i = 0; i < calls; i++) {
      if (service.requestToken(rule, 1, false).status() == Status.OK) {
        ok++;
      }
    }
    return ok;
  }

  /** Asks for one permit until refused (REFUSED); returns how many were granted before. */
  private static int untilRefused(TokenService service, FlowRule rule) {
    int ok = 0;
    TokenService.Result answer;
    while ((answer = service.requestToken(rule, 1, false)).status() == Status.OK && ok < 1000) {
      ok++;
    }
    assertThat(answer.status()).as("the refusal after %d grants", ok).isEqualTo(Status.REFUSED);
    return ok;
  }

  /** Exactly {@code expected} for an exact backend; no more for one that takes permits ahead. */
  private void expect(int actual, int expected) {
    if (exact()) {
      assertThat(actual).isEqualTo(expected);
    } else {
      assertThat(actual).isBetween(1, expected);
    }
  }
}
