package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.rules.RuleFormat;
import dev.guard.spi.RulePart;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, finding 5, for the Redis rule source against a real {@code redis-server}: a set whose
 * written document is over the read limit was stored in the key, and an engine attaching the key
 * then got no rules. Such a set is now refused before Redis or the engine sees it; a set within
 * the limit reaches an engine that attaches later.
 */
@Tag("process")
class Issue36RedisRuleDocumentSizeTest {

  private static final String KEY = "shop:guard-rules";
  private static final RuleSet BEFORE = RuleSet.of(FlowRule.qps("search", 50));

  private RedisServer redis;
  private RedisClient direct;
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
        .connectTimeout(Duration.ofSeconds(2)).build();
    open.add(source);
    return source;
  }

  private static GuardEngine engine() {
    return GuardEngine.builder().clock(ManualClock.parking()).maxResources(100).build();
  }

  private String key() {
    try (StatefulRedisConnection<String, String> c = direct.connect()) {
      return c.sync().get(KEY);
    }
  }

  private static String name(String tag, int length) {
    return "x".repeat(Math.max(0, length - tag.length())) + tag;
  }

  /** The finding's set: 5,000 flow rules, 945,022 characters written without spaces. */
  private static RuleSet finding() {
    List<Rule> rules = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      rules.add(FlowRule.qps(name("orders-service/partner-api/v2/" + (i % 5), 110), 1000)
          .withOrigin(name("partner-" + i, 40)));
    }
    return RuleSet.of(rules);
  }

  @Test
  void write_setWhoseDocumentWouldNotReadBack_isRefusedBeforeRedisOrTheEngineSeeIt() {
    try (StatefulRedisConnection<String, String> c = direct.connect()) {
      c.sync().set(KEY, RuleFormat.write(BEFORE));
    }
    RedisRuleSource writer = source();
    GuardEngine engine = engine();
    engine.attach(writer, RulePart.all());
    String stored = key();

    assertThatThrownBy(() -> writer.write(finding()))
        .isInstanceOf(InvalidRulesException.class)
        .hasMessageContaining("rules: must be at most " + RuleFormat.MAX_DOCUMENT_CHARS
            + " characters long as RuleFormat.write writes it, so that it reads back, was 1115035"
            + " characters");

    assertThat(key()).isEqualTo(stored);
    assertThat(engine.ruleSet()).isEqualTo(BEFORE);
    GuardEngine second = engine();
    second.attach(source(), RulePart.all());
    assertThat(second.ruleSet()).isEqualTo(BEFORE);
  }

  @Test
  void write_largestFlowSetWithinTheLimit_isWhatAnEngineAttachingTheKeyLaterGets() {
    RuleSet largest = RuleSet.empty();
    for (int count = 1; ; count++) {
      List<Rule> rules = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        rules.add(FlowRule.qps(name("r" + (i % 50), RuleFormat.MAX_STRING_CHARS), 1)
            .withOrigin(name("o" + i, RuleFormat.MAX_STRING_CHARS)));
      }
      RuleSet next = RuleSet.of(rules);
      try {
        if (RuleFormat.write(next).length() > RuleFormat.MAX_DOCUMENT_CHARS) {
          break;
        }
      } catch (InvalidRulesException over) {
        break;
      }
      largest = next;
    }
    RedisRuleSource writer = source();
    GuardEngine first = engine();
    first.attach(writer, RulePart.all());

    writer.write(largest);

    GuardEngine second = engine();
    second.attach(source(), RulePart.all());
    assertThat(RuleFormat.write(largest).length()).isGreaterThan(RuleFormat.MAX_DOCUMENT_CHARS
        - 2 * (RuleFormat.MAX_STRING_CHARS + 64));
    assertThat(second.ruleSet()).isEqualTo(largest).isEqualTo(first.ruleSet());
  }

  @Test
  void write_withoutAnEngine_thenAttachingTheSameSource_appliesWhatWasStored() {
    RedisRuleSource writer = source();
    writer.write(BEFORE);

    GuardEngine engine = engine();
    engine.attach(writer, RulePart.all());

    assertThat(engine.ruleSet()).isEqualTo(BEFORE);
  }
}
