package dev.guard.redis;

import dev.guard.spi.RulePart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import dev.guard.rules.RuleFormat;
import dev.guard.testing.Await;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/BEHAVIOUR.md, "The Redis rule source", against a real {@code redis-server} started for each
 * test. Polls wait on a parking manual clock: a test advances it by one interval and waits for the
 * listener to hear the result, so nothing sleeps for a fixed time; notices arrive over the real
 * pub/sub channel and are awaited the same way.
 */
@Tag("process")
class RedisRuleSourceTest {

  private static final String KEY = "shop:guard-rules";
  private static final Duration INTERVAL = Duration.ofSeconds(5);
  private static final long PATIENCE_SECONDS = 10;

  /** What an engine's listeners heard, in order, on any thread. */
  static final class Heard implements EngineListener {
    final BlockingQueue<String> events = new LinkedBlockingQueue<>();

    @Override
    public void onRulesApplied(RuleSet.Revision revision) {
      events.add("applied " + revision.changes());
    }

    @Override
    public void onRulesInvalid(String source, List<InvalidRulesException.Error> errors) {
      events.add("rejected " + errors);
    }

    String next() throws InterruptedException {
      String event = events.poll(PATIENCE_SECONDS, TimeUnit.SECONDS);
      assertThat(event).as("an event within %d s", PATIENCE_SECONDS).isNotNull();
      return event;
    }
  }

  private RedisServer redis;
  private RedisClient direct;
  private final ManualClock clock = ManualClock.parking();
  private final List<AutoCloseable> open = new ArrayList<>();

  @BeforeEach
  void startRedis() throws Exception {
    redis = RedisServer.start();
    direct = RedisClient.create(redis.uri());
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
    direct.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    redis.close();
  }

  private RedisRuleSource source() {
    RedisRuleSource source = RedisRuleSource.builder(redis.uri(), KEY)
        .pollInterval(INTERVAL)
        .connectTimeout(Duration.ofMillis(500))
        .build();
    open.add(source);
    return source;
  }

  private GuardEngine engine(Heard heard) {
    return GuardEngine.builder().clock(clock).maxResources(10).listener(heard).build();
  }

  /** Sets the key as a hand edit would: no notice is published. */
  private void setKey(String document) {
    try (StatefulRedisConnection<String, String> c = direct.connect()) {
      c.sync().set(KEY, document);
    }
  }

  private void publish() {
    try (StatefulRedisConnection<String, String> c = direct.connect()) {
      c.sync().publish(KEY, "edited by hand");
    }
  }

  private String key() {
    try (StatefulRedisConnection<String, String> c = direct.connect()) {
      return c.sync().get(KEY);
    }
  }

  /** Lets one poll interval pass once {@code pollers} sources wait on the clock. */
  private void poll(int pollers) throws InterruptedException {
    assertThat(clock.awaitSleepers(pollers, Duration.ofSeconds(PATIENCE_SECONDS)))
        .as("the sources wait for the next poll").isTrue();
    clock.advance(INTERVAL);
  }

  private static RuleSet rules(String resource, int qps) {
    return RuleSet.of(List.of(FlowRule.qps(resource, qps)));
  }

  @Test
  void attach_appliesWhatTheKeyHolds() {
    setKey(RuleFormat.write(rules("search", 50)));
    Heard heard = new Heard();
    GuardEngine engine = engine(heard);
    RedisRuleSource source = source();

    engine.attach(source, RulePart.all());

    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));
    assertThat(engine.ruleHistory()).singleElement()
        .extracting(RuleSet.Revision::source).isEqualTo(source.name());
  }

  @Test
  void attach_absentKey_keepsTheEnginesRules() throws Exception {
    Heard heard = new Heard();
    GuardEngine engine = engine(heard);
    engine.apply(rules("search", 50));
    heard.next();

    engine.attach(source(), RulePart.all());
    poll(1);
    poll(1);

    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));
    assertThat(heard.events).isEmpty();
  }

  @Test
  void write_onOneInstance_reachesTheOther() throws Exception {
    Heard heardA = new Heard();
    Heard heardB = new Heard();
    GuardEngine a = engine(heardA);
    GuardEngine b = engine(heardB);
    RedisRuleSource onA = source();
    a.attach(onA, RulePart.all());
    b.attach(source(), RulePart.all());

    onA.write(rules("search", 80));

    assertThat(heardB.next()).isEqualTo("applied 1 added, 0 removed on [search]");
    assertThat(b.ruleSet()).isEqualTo(rules("search", 80));
    assertThat(a.ruleSet()).isEqualTo(rules("search", 80));
    assertThat(RuleFormat.parse(key())).isEqualTo(rules("search", 80));
  }

  /** Two instances on the key, each with a source; B has applied the key's first document. */
  private record Instances(GuardEngine a, RedisRuleSource onA, GuardEngine b, Heard heardB) {}

  private Instances twoInstancesOn(RuleSet first) throws Exception {
    setKey(RuleFormat.write(first));
    Heard heardB = new Heard();
    GuardEngine a = engine(new Heard());
    GuardEngine b = engine(heardB);
    RedisRuleSource onA = source();
    a.attach(onA, RulePart.all());
    b.attach(source(), RulePart.all());
    heardB.next();
    return new Instances(a, onA, b, heardB);
  }

  @Test
  void write_whileRedisIsStopped_saysItsOutcomeIsUnknown_andEveryInstanceAppliesItOnResume()
      throws Exception {
    Instances two = twoInstancesOn(rules("search", 50));
    GuardEngine a = two.a();
    GuardEngine b = two.b();
    RedisRuleSource onA = two.onA();
    Heard heardB = two.heardB();

    redis.pause();
    try {
      assertThatThrownBy(() -> onA.write(rules("search", 80)))
          .isInstanceOf(RedisRuleSource.WriteOutcomeUnknownException.class)
          .hasMessageContaining(onA.name());
      assertThat(a.ruleSet()).as("kept until a read tells").isEqualTo(rules("search", 80));
    } finally {
      redis.resume();
    }

    assertThat(heardB.next()).isEqualTo("applied 1 added, 1 removed on [search]");
    assertThat(b.ruleSet()).isEqualTo(rules("search", 80));
    assertThat(RuleFormat.parse(key())).isEqualTo(rules("search", 80));
    onA.write(rules("search", 90)); // the writer knows the key again: no conflict reported
    assertThat(RuleFormat.parse(key())).isEqualTo(rules("search", 90));
  }

  @Test
  void handEditWithoutNotice_isPickedUpByThePoll() throws Exception {
    setKey(RuleFormat.write(rules("search", 50)));
    Heard heard = new Heard();
    GuardEngine engine = engine(heard);
    engine.attach(source(), RulePart.all());
    heard.next();

    setKey(RuleFormat.write(rules("search", 70)));
    poll(1);

    assertThat(heard.next()).isEqualTo("applied 1 added, 1 removed on [search]");
    assertThat(engine.ruleSet()).isEqualTo(rules("search", 70));
  }

  @Test
  void handEditWithNotice_appliesWithoutWaitingForThePoll() throws Exception {
    Heard heard = new Heard();
    GuardEngine engine = engine(heard);
    engine.attach(source(), RulePart.all());

    setKey(RuleFormat.write(rules("search", 70)));
    publish();

    assertThat(heard.next()).isEqualTo("applied 1 added, 0 removed on [search]");
  }

  @Test
  void invalidDocument_isRejectedOnce_andTheRulesStay() throws Exception {
    setKey(RuleFormat.write(rules("search", 50)));
    Heard heard = new Heard();
    GuardEngine engine = engine(heard);
    engine.attach(source(), RulePart.all());
    heard.next();

    setKey("{\"version\": 1, \"flow\": [{\"resource\": \"search\", \"qps\": -5}]}");
    publish();

    assertThat(heard.next()).isEqualTo("rejected [rules.flow[0].qps: must be finite and >= 0, was -5]");
    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));
    poll(1);
    poll(1);
    assertThat(heard.events).as("the same document is reported once").isEmpty();

    setKey("{not json");
    poll(1);
    assertThat(heard.next()).contains("is not valid JSON");
    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));
  }

  @Test
  void write_setTheEngineRefuses_isNeitherStoredNorPublished() throws Exception {
    Instances two = twoInstancesOn(rules("search", 50));
    GuardEngine a = two.a();
    GuardEngine b = two.b();
    RedisRuleSource onA = two.onA();
    Heard heardB = two.heardB();
    RuleSet tooMany = RuleSet.of(IntStream.range(0, 11)
        .mapToObj(i -> FlowRule.qps("r" + i, 1)).toList());

    assertThatThrownBy(() -> onA.write(tooMany)).isInstanceOf(InvalidRulesException.class);

    assertThat(RuleFormat.parse(key())).isEqualTo(rules("search", 50));
    onA.write(rules("search", 60));
    assertThat(heardB.next()).isEqualTo("applied 1 added, 1 removed on [search]");
    assertThat(b.ruleSet()).isEqualTo(rules("search", 60));
  }

  @Test
  void write_afterAnotherWritersChangeThisSourceDidNotSee_isRefused_andTheEngineTakesTheKey()
      throws Exception {
    setKey(RuleFormat.write(rules("search", 50)));
    Heard heard = new Heard();
    GuardEngine engine = engine(heard);
    RedisRuleSource source = source();
    engine.attach(source, RulePart.all());
    heard.next();
    setKey(RuleFormat.write(rules("search", 70))); // no notice: this source has not seen it

    assertThatThrownBy(() -> source.write(rules("search", 90)))
        .isInstanceOf(ConcurrentModificationException.class);

    assertThat(RuleFormat.parse(key())).isEqualTo(rules("search", 70));
    assertThat(engine.ruleSet()).isEqualTo(rules("search", 70));
    source.write(rules("search", 90)); // now based on what the key holds
    assertThat(RuleFormat.parse(key())).isEqualTo(rules("search", 90));
  }

  @Test
  void redisKilledAndRestarted_nothingThrown_andTheKeyIsReadAgain() throws Exception {
    setKey(RuleFormat.write(rules("search", 50)));
    Heard heard = new Heard();
    GuardEngine engine = engine(heard);
    RedisRuleSource source = source();
    engine.attach(source, RulePart.all());
    heard.next();

    redis.kill();
    poll(1);
    assertThat(heard.next()).startsWith("rejected").contains("could not be read");
    poll(1);
    assertThatThrownBy(() -> source.write(rules("search", 60)))
        .isInstanceOf(UncheckedIOException.class);
    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));

    redis.restart(); // every key lost: the rules in force stay until the key is set again
    setKey(RuleFormat.write(rules("search", 70)));
    poll(1);
    assertThat(heard.next()).isEqualTo("applied 1 added, 1 removed on [search]");
    assertThat(heard.events).as("the outage was reported once").isEmpty();

    RedisRuleSource other = source(); // and notices arrive again: the channel is subscribed anew
    engine(new Heard()).attach(other, RulePart.all());
    other.write(rules("search", 90));
    assertThat(heard.next()).isEqualTo("applied 1 added, 1 removed on [search]");
  }

  @Test
  void noServerAtAttach_nothingThrown_andTheKeyIsReadOnceItIsUp() throws Exception {
    redis.kill();
    Heard heard = new Heard();
    GuardEngine engine = engine(heard);

    assertThatCode(() -> engine.attach(source(), RulePart.all())).doesNotThrowAnyException();
    assertThat(heard.next()).contains("could not be read");

    redis.restart();
    setKey(RuleFormat.write(rules("search", 40)));
    poll(1);
    assertThat(heard.next()).isEqualTo("applied 1 added, 0 removed on [search]");
  }

  @Test
  void close_endsItsThreadsAndConnections() throws Exception {
    Heard heard = new Heard();
    GuardEngine engine = engine(heard);
    RedisRuleSource source = source();
    engine.attach(source, RulePart.all());
    source.write(rules("search", 50)); // its own notice starts the notice thread
    assertThat(clientsNamedGuardRules()).as("one connection, subscribed").isEqualTo(1);
    assertThat(threadsOf()).isNotEmpty();

    source.close();

    assertThat(threadsOf()).isEmpty();
    // the server notices closed sockets a moment later
    Await.until("the server to list no client named guard-rules",
        Duration.ofSeconds(PATIENCE_SECONDS), () -> clientsNamedGuardRules() == 0);
    setKey(RuleFormat.write(rules("search", 80)));
    publish();
    clock.advance(INTERVAL);
    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));
  }

  private long clientsNamedGuardRules() {
    try (StatefulRedisConnection<String, String> c = direct.connect()) {
      return c.sync().clientList().lines().filter(l -> l.contains("name=guard-rules ")).count();
    }
  }

  private static List<String> threadsOf() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(n -> n.startsWith("guard-redis-rules"))
        .toList();
  }
}
