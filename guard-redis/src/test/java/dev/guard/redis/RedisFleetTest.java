package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.Entry;
import dev.guard.api.PeriodStats;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The fleet on a real redis-server: several engines of one JVM on one manual clock publish by
 * hand (no thread, no waiting), and any of them reads back the instances, the sums and the
 * disagreements. What another instance stored is hostile: malformed entries are skipped and
 * counted.
 */
@Tag("process")
class RedisFleetTest {

  private static RedisServer redis;
  private static RedisClient direct;
  private static StatefulRedisConnection<String, String> connection;

  private final ManualClock clock = new ManualClock();
  private final String namespace = "shop-" + UUID.randomUUID();
  private final List<AutoCloseable> open = new ArrayList<>();

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisServer.start();
    direct = RedisClient.create(redis.uri());
    connection = direct.connect();
  }

  @AfterAll
  static void stopRedis() throws Exception {
    connection.close();
    direct.shutdown();
    redis.close();
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable closeable : open) {
      closeable.close();
    }
  }

  /** One instance: an engine and its place in the fleet, on the test's clock. */
  record Member(GuardEngine engine, RedisFleet fleet) {}

  private Member member(String id) {
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    RedisFleet fleet = connected(RedisFleet.builder(engine, redis.uri(), namespace)
        .instanceId(id).name("shop " + id).clock(clock).wallClock(clock).build());
    open.add(fleet);
    open.add(engine);
    return new Member(engine, fleet);
  }

  static RedisFleet connected(RedisFleet fleet) {
    assertThat(fleet.awaitConnected(Duration.ofSeconds(10))).as("connected to Redis").isTrue();
    return fleet;
  }

  private static RedisCommands<String, String> redis() {
    return connection.sync();
  }

  /** Calls a resource n times now; returns the admitted calls. */
  private static int call(GuardEngine engine, String resource, int n) {
    int passed = 0;
    for (int i = 0; i < n; i++) {
      try (Entry ignored = engine.resource(resource).enter()) {
        passed++;
      } catch (RefusedException refused) {
        // counted by the engine
      }
    }
    return passed;
  }

  private void nextSecond() {
    clock.advanceMillis(1000 - Math.floorMod(clock.nanoTime() / 1_000_000, 1000));
  }

  private static void publish(Member... members) {
    for (Member member : members) {
      assertThat(member.fleet().publish()).as("published " + member.fleet().instanceId())
          .isTrue();
    }
  }

  private static RedisFleet.Figures totals(GuardEngine engine, String resource) {
    PeriodStats s = engine.metricsTotals(resource);
    return new RedisFleet.Figures(s.pass(), s.refused(), s.success(), s.exception(), s.rtSumMs());
  }

  private static RedisFleet.Resource resource(RedisFleet.View view, String name) {
    return view.resources().stream().filter(r -> r.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError(name + " not in " + view.resources()));
  }

  private static RedisFleet.Instance instance(RedisFleet.View view, String id) {
    return view.instances().stream().filter(i -> i.id().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError(id + " not in " + view.instances()));
  }

  @Test
  void threeEngines_viewSumsEqualEachEnginesOwnTotals() {
    Member a = member("a");
    Member b = member("b");
    Member c = member("c");
    RuleSet rules = RuleSet.of(FlowRule.qps("checkout", 5));
    for (Member m : List.of(a, b, c)) {
      m.engine().apply(rules);
    }
    for (int second = 0; second < 5; second++) {
      call(a.engine(), "checkout", 8);
      call(b.engine(), "checkout", 3 + second);
      call(c.engine(), "checkout", 4);
      call(a.engine(), "search", 2);
      try (Entry slow = c.engine().resource("search").enter()) {
        clock.advanceMillis(25);
      } catch (RefusedException refused) {
        throw new AssertionError(refused);
      }
      nextSecond();
      publish(a, b, c);
    }

    RedisFleet.View view = b.fleet().view();

    assertThat(view.problem()).isNull();
    assertThat(view.skipped()).isZero();
    assertThat(view.self()).isEqualTo("b");
    assertThat(view.instances()).extracting(RedisFleet.Instance::id)
        .containsExactlyInAnyOrder("a", "b", "c");
    assertThat(view.instances()).allMatch(RedisFleet.Instance::alive)
        .allMatch(RedisFleet.Instance::agrees);
    assertThat(view.rulesAgree()).isTrue();
    assertThat(instance(view, "b").self()).isTrue();
    assertThat(instance(view, "a").name()).isEqualTo("shop a");
    assertThat(instance(view, "a").pid()).isEqualTo(ProcessHandle.current().pid());
    assertThat(instance(view, "a").rules()).isEqualTo(RedisFleet.digest(a.engine().ruleSet()))
        .hasSize(16);
    assertThat(instance(view, "a").ruleRevision()).isEqualTo(1);
    assertThat(instance(view, "a").rulesAppliedAtMs()).isZero(); // applied at clock 0
    assertThat(instance(view, "a").startedMs()).isEqualTo(1000); // its first heartbeat
    assertThat(instance(view, "a").lastSeenMs()).isEqualTo(5000);
    for (String name : List.of("checkout", "search")) {
      RedisFleet.Resource resource = resource(view, name);
      RedisFleet.Figures sum = RedisFleet.Figures.NONE;
      for (Member m : List.of(a, b, c)) {
        RedisFleet.Figures own = totals(m.engine(), name);
        if (own.pass() + own.refused() > 0) {
          assertThat(resource.byInstance().get(m.fleet().instanceId())).as(name + " of "
              + m.fleet().instanceId()).isEqualTo(own);
        }
        sum = sum.plus(own);
      }
      assertThat(resource.total()).as(name).isEqualTo(sum);
      assertThat(resource.seconds()).extracting(RedisFleet.Second::epochSecond)
          .containsExactly(0L, 1L, 2L, 3L, 4L);
    }
    assertThat(resource(view, "checkout").total().pass()).isEqualTo(5 * 5 + (3 + 4 + 5 + 5 + 5)
        + 4 * 5);
    assertThat(resource(view, "checkout").seconds().get(0).figures().refused()).isEqualTo(3);
    assertThat(resource(view, "search").byInstance().get("c").averageRtMs()).isEqualTo(25.0);
  }

  @Test
  void instanceWithOtherRules_isFlaggedAndTheAppliedTimeIsShown() {
    Member a = member("a");
    Member b = member("b");
    Member c = member("c");
    RuleSet rules = RuleSet.of(FlowRule.qps("checkout", 5));
    a.engine().apply(rules);
    b.engine().apply(rules);
    clock.advanceMillis(1500);
    c.engine().apply(RuleSet.of(FlowRule.qps("checkout", 6)));
    publish(a, b, c);

    RedisFleet.View view = a.fleet().view();

    assertThat(view.rulesAgree()).isFalse();
    assertThat(instance(view, "a").agrees()).isTrue();
    assertThat(instance(view, "b").agrees()).isTrue();
    assertThat(instance(view, "c").agrees()).isFalse();
    assertThat(instance(view, "c").rulesAppliedAtMs()).isEqualTo(1500);
    assertThat(instance(view, "c").ruleSource()).isEqualTo(GuardEngine.APPLIED);

    c.engine().apply(rules);
    publish(c);
    assertThat(a.fleet().view().rulesAgree()).isTrue();
  }

  @Test
  void instanceThatStops_isLateAfterThreeHeartbeatsAndGoneAfterTheExpiry() {
    Member a = member("a");
    Member b = member("b");
    publish(a, b);
    for (int second = 1; second <= 10; second++) {
      clock.advanceMillis(1000);
      publish(a); // b stopped at 0
      RedisFleet.View view = a.fleet().view();
      assertThat(instance(view, "b").alive()).as("b at %d s", second).isEqualTo(second <= 3);
      assertThat(instance(view, "b").lastSeenMs()).isZero();
    }
    clock.advanceMillis(1);
    publish(a);
    RedisFleet.View view = a.fleet().view();
    assertThat(view.instances()).extracting(RedisFleet.Instance::id).containsExactly("a");
    assertThat(redis().zrange(a.fleet().registryKey(), 0, -1)).containsExactly("a");
    // b's heartbeat expires in Redis after the expiry since its last beat (real time there);
    // without calls it published no seconds
    assertThat(redis().pttl(b.fleet().ownKeys().get(0))).isBetween(1L, 10_000L);
    assertThat(redis().exists(b.fleet().ownKeys().get(1))).isZero();
  }

  @Test
  void close_leavesTheFleetAtOnce() {
    Member a = member("a");
    Member b = member("b");
    publish(a, b);
    b.fleet().close();

    assertThat(a.fleet().view().instances()).extracting(RedisFleet.Instance::id)
        .containsExactly("a");
    assertThat(redis().exists(b.fleet().ownKeys().toArray(new String[0]))).isZero();
    assertThat(b.fleet().view().problem()).contains("closed");
  }

  @Test
  void hostileEntries_areSkippedAndCounted_theRestIsRead() {
    Member a = member("a");
    call(a.engine(), "checkout", 3);
    nextSecond();
    publish(a);
    String registry = a.fleet().registryKey();
    String prefix = "guard-fleet:{" + namespace + ":";
    // an id that would break the hash tag, and a member whose key is of another type
    redis().zadd(registry, 0, "evil}{id");
    redis().zadd(registry, 0, "intruder");
    redis().set(prefix + "intruder}:h", "not a hash");
    // a member with a valid heartbeat and one valid entry among hostile ones
    redis().zadd(registry, 0, "m");
    redis().hset(prefix + "m}:h", Map.ofEntries(Map.entry("id", "m"), Map.entry("name",
        "x".repeat(5000)), Map.entry("host", "h"), Map.entry("pid", "7"), Map.entry("guard", "g"),
        Map.entry("rules", "0123456789abcdef"), Map.entry("revision", "1"),
        Map.entry("applied", "0"), Map.entry("source", "s"), Map.entry("started", "0"),
        Map.entry("heartbeat", "1000"), Map.entry("seen", "0")));
    redis().lpush(prefix + "m}:s", "s 0\ncheckout 2 1 2 0 10 0", "s 0\ncheckout 1 1 1 0 1 0",
        "a".repeat(70_000), "s 0\ncheckout 1 2", "s 0\ncheckout -1 0 0 0 0 0",
        "s 0\nredis.call('FLUSHALL') 1 0 0 0 0 0\nredis.call('FLUSHALL') 1 0 0 0 0 0");
    // a member with a malformed heartbeat
    redis().zadd(registry, 0, "broken");
    redis().hset(prefix + "broken}:h", Map.of("id", "broken", "pid", "-1"));

    RedisFleet.View view = a.fleet().view();

    assertThat(view.problem()).isNull();
    assertThat(view.instances()).extracting(RedisFleet.Instance::id)
        .containsExactlyInAnyOrder("a", "m");
    assertThat(instance(view, "m").name()).as("an oversized field reads empty").isEmpty();
    // skipped: the id, the wrong type, the broken heartbeat, then m's entries: a second named
    // twice, the oversized, the short line, the negative count, the resource listed twice
    assertThat(view.skipped()).isEqualTo(8);
    RedisFleet.Resource checkout = resource(view, "checkout");
    assertThat(checkout.byInstance().get("m")).isEqualTo(new RedisFleet.Figures(1, 1, 1, 0, 1));
    assertThat(checkout.byInstance().get("a").pass()).isEqualTo(3);
    assertThat(redis().dbsize()).isPositive();
  }

  @Test
  void redisAway_viewSaysSo_publishReportsFailure() {
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    open.add(engine);
    RedisFleet fleet = RedisFleet.builder(engine, "redis://127.0.0.1:1", namespace)
        .clock(clock).requestTimeout(Duration.ofMillis(200)).build();
    open.add(fleet);

    assertThat(fleet.publish()).isFalse();
    assertThat(fleet.view().problem()).isNotNull();
    assertThat(fleet.view().instances()).isEmpty();
  }

  @Test
  void ownData_isBoundedInKeysAndBytes() {
    Member a = member("a");
    Member one = member("one");
    for (int second = 0; second < 70; second++) {
      for (int r = 0; r < 20; r++) {
        call(a.engine(), "resource-" + r, 1 + r);
      }
      call(one.engine(), "checkout", 30);
      nextSecond();
      publish(a, one);
    }
    for (String key : one.fleet().ownKeys()) {
      System.out.println("fleet data of one instance, 1 busy resource, 60 s: " + key + " "
          + redis().memoryUsage(key) + " bytes");
    }
    System.out.println("the registry of 2 instances: " + redis().memoryUsage(
        a.fleet().registryKey()) + " bytes");
    List<String> keys = a.fleet().ownKeys();
    assertThat(redis().llen(keys.get(1))).isEqualTo(60);
    long bytes = 0;
    for (String key : keys) {
      bytes += redis().memoryUsage(key);
      assertThat(redis().pttl(key)).isBetween(1L, 10_000L);
    }
    System.out.println("fleet data of one instance, 20 busy resources, 60 s: " + bytes
        + " bytes in " + keys.size() + " keys");
    assertThat(bytes).isLessThan(60L * FleetCodec.MAX_ENTRY_BYTES);
    assertThat(a.fleet().view().resources().size()).isEqualTo(21);
  }

  /** Whether the started fleet's beat at {@code ms} has been stored (it may still be under way). */
  private static boolean awaitSeen(RedisFleet fleet, ManualClock clock, long ms)
      throws InterruptedException {
    for (int look = 0; look < 1000; look++) {
      if (clock.awaitSleepers(1, Duration.ofSeconds(30))
          && instance(fleet.view(), "t").lastSeenMs() == ms) {
        return true;
      }
    }
    return false;
  }

  @Test
  void builder_refusesBadSettings() {
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    open.add(engine);
    assertThatThrownBy(() -> RedisFleet.builder(engine, redis.uri(), "a:b"))
        .hasMessageContaining("namespace");
    assertThatThrownBy(() -> RedisFleet.builder(engine, redis.uri(), "a").instanceId("x}y"))
        .hasMessageContaining("instanceId");
    assertThatThrownBy(() -> RedisFleet.builder(engine, redis.uri(), "a").seconds(0))
        .hasMessage("seconds must be from 1 to 3600, was 0");
    assertThatThrownBy(() -> RedisFleet.builder(engine, redis.uri(), "a")
        .heartbeat(Duration.ofSeconds(5)).build())
        .hasMessageContaining("expiry must be at least three heartbeats");
    assertThatThrownBy(() -> RedisFleet.builder(engine, redis.uri(), "a")
        .heartbeat(Duration.ofSeconds(1)).heartbeat(Duration.ofSeconds(2)))
        .hasMessage("heartbeat is already set");
  }

  @Test
  void startedFleet_beatsOncePerHeartbeatOfItsClock_andCloseStopsIt() throws Exception {
    ManualClock parking = ManualClock.parking();
    GuardEngine engine = GuardEngine.builder().clock(parking).build();
    open.add(engine);
    RedisFleet fleet = RedisFleet.builder(engine, redis.uri(), namespace).instanceId("t")
        .clock(parking).wallClock(parking).build();
    open.add(fleet);
    connected(fleet);
    fleet.start();
    assertThat(parking.awaitSleepers(1, Duration.ofSeconds(30))).isTrue();
    assertThatThrownBy(fleet::start).hasMessageContaining("started already");
    assertThat(instance(fleet.view(), "t").lastSeenMs()).isZero();
    call(engine, "checkout", 4);
    parking.advance(Duration.ofMillis(999));
    assertThat(parking.awaitSleepers(1, Duration.ofSeconds(30))).isTrue();
    assertThat(instance(fleet.view(), "t").lastSeenMs()).as("no beat before the period")
        .isZero();
    parking.advance(Duration.ofMillis(1));
    assertThat(awaitSeen(fleet, parking, 1000)).isTrue();
    assertThat(resource(fleet.view(), "checkout").total().pass()).isEqualTo(4);
    fleet.close();
    assertThat(Thread.getAllStackTraces().keySet()).noneMatch(
        t -> t.getName().equals("guard-redis fleet " + namespace));
  }
}
