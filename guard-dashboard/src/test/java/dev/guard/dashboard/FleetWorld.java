package dev.guard.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.redis.RedisFleet;
import dev.guard.redis.RedisRuleSource;
import dev.guard.rules.RuleFormat;
import dev.guard.spi.EngineListener;
import dev.guard.spi.RulePart;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * Several instances of one service in this JVM, on one manual clock and a real redis-server:
 * each an engine with a started fleet and the shared Redis rule source; instance 0 serves the
 * dashboard. Fleets and rule pollers beat when the test advances the clock ({@link #beat()}
 * waits until every one of them has published and parked again).
 */
final class FleetWorld implements AutoCloseable {

  static final String RULES_KEY = "shop:guard-rules";
  private static final long PATIENCE_SECONDS = 30;

  final RedisServer redis;
  final ManualClock clock;
  final List<GuardEngine> engines = new ArrayList<>();
  final List<RedisFleet> fleets = new ArrayList<>();
  final List<RedisRuleSource> sources = new ArrayList<>();
  final List<BlockingQueue<RuleSet.Revision>> applied = new ArrayList<>();
  final GuardDashboard.Server server;
  private int parked;

  FleetWorld(int instances, UnaryOperator<GuardDashboard.Builder> options) throws Exception {
    this(new ManualClock(), instances, i -> "shop-" + (char) ('a' + i),
        i -> "shop " + (char) ('a' + i), options);
  }

  /**
   * Instances on the given clock (whose reading, as nanoseconds since the epoch, is their wall
   * time), with the given instance ids and names.
   */
  FleetWorld(ManualClock clock, int instances, IntFunction<String> id, IntFunction<String> name,
      UnaryOperator<GuardDashboard.Builder> options) throws Exception {
    this.clock = clock;
    redis = RedisServer.start();
    for (int i = 0; i < instances; i++) {
      BlockingQueue<RuleSet.Revision> heard = new LinkedBlockingQueue<>();
      GuardEngine engine = GuardEngine.builder().clock(clock)
          .listener(new EngineListener() {
            @Override
            public void onRulesApplied(RuleSet.Revision revision) {
              heard.add(revision);
            }
          }).build();
      RedisRuleSource source = RedisRuleSource.of(redis.uri(), RULES_KEY);
      engine.attach(source, RulePart.all());
      RedisFleet fleet = RedisFleet.builder(engine, redis.uri(), "shop")
          .instanceId(id.apply(i)).name(name.apply(i))
          .clock(clock).wallClock(clock).build();
      assertThat(fleet.awaitConnected(Duration.ofSeconds(10))).isTrue();
      engines.add(engine);
      fleets.add(fleet);
      sources.add(source);
      applied.add(heard);
    }
    fleets.forEach(RedisFleet::start);
    parked = 2 * instances; // a fleet and a rule poller per instance
    awaitParked();
    server = options.apply(GuardDashboard.builder(engines.get(0))
        .fleet(fleets.get(0)).ruleSource(sources.get(0))).build().start();
  }

  /** Calls a resource of instance i n times now; returns how many were admitted. */
  int call(int instance, String resource, int n) {
    int passed = 0;
    for (int c = 0; c < n; c++) {
      try (Entry ignored = engines.get(instance).resource(resource).enter()) {
        passed++;
      } catch (RefusedException refused) {
        // counted by the engine
      }
    }
    return passed;
  }

  /** Moves time on by one second: every fleet publishes, and this returns when all did. */
  void beat() throws InterruptedException {
    clock.advance(Duration.ofSeconds(1));
    awaitParked();
  }

  /** Waits until every fleet and rule poller has published and parked on the clock again. */
  void awaitParked() throws InterruptedException {
    assertThat(clock.awaitSleepers(parked, Duration.ofSeconds(PATIENCE_SECONDS)))
        .as("%d background loops parked", parked).isTrue();
  }

  /**
   * Waits until instance i applied the next rule set from the Redis rule source (which delivers
   * on its own thread); sets the test applied directly are passed over.
   */
  RuleSet.Revision nextApplied(int instance) throws InterruptedException {
    while (true) {
      RuleSet.Revision revision =
          applied.get(instance).poll(PATIENCE_SECONDS, TimeUnit.SECONDS);
      assertThat(revision).as("instance %d applied rules from Redis", instance).isNotNull();
      if (revision.source().startsWith("redis:")) {
        return revision;
      }
    }
  }

  /** {@code PUT api/rules} on instance 0's dashboard, as a script would send it. */
  HttpResponse<String> putRules(String token, RuleSet rules) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(server.uri().resolve("api/rules"))
        .header("Authorization", "Bearer " + token).header("X-Guard-Dashboard", "1")
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(RuleFormat.write(rules))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Closes instance i's fleet: it leaves the fleet at once. */
  void leave(int instance) {
    fleets.get(instance).close();
    parked--;
  }

  @Override
  public void close() throws Exception {
    server.close();
    for (int i = 0; i < engines.size(); i++) {
      fleets.get(i).close();
      sources.get(i).close();
      engines.get(i).close();
    }
    redis.close();
  }
}
