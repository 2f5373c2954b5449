package dev.guard.rules;

import dev.guard.spi.RulePart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A custom store on {@link PollingRuleSource}: looked at when attached and every interval on the
 * engine's (parking, manual) clock; a look that throws is reported and the rules in force stay.
 */
class PollingRuleSourceTest {

  private static final Duration INTERVAL = Duration.ofSeconds(10);
  private static final Duration PATIENCE = Duration.ofSeconds(10);

  private final ManualClock clock = ManualClock.parking();
  private final FileRuleSourceTest.Heard heard = new FileRuleSourceTest.Heard();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).listener(heard).build();
  /** The store: a document, or null when it cannot be reached. */
  private final AtomicReference<@Nullable String> store = new AtomicReference<>();
  private final StoreSource source = new StoreSource();

  /** Reads the store; applies a changed document. */
  private final class StoreSource extends PollingRuleSource {
    private @Nullable String applied;

    StoreSource() {
      super("store:test", INTERVAL);
    }

    @Override
    protected void look(boolean first) {
      String document = store.get();
      if (document == null) {
        throw new IllegalStateException("store down");
      }
      if (!document.equals(applied)) {
        applied = document;
        apply(RuleFormat.parse(document));
      }
    }
  }

  @AfterEach
  void tearDown() {
    source.close();
  }

  private static String qps(int qps) {
    return "{\"version\": 1, \"flow\": [{\"resource\": \"search\", \"qps\": " + qps + "}]}";
  }

  private void poll() throws InterruptedException {
    clock.advance(INTERVAL);
    assertThat(clock.awaitSleepers(1, PATIENCE)).as("the source polls again").isTrue();
  }

  @Test
  void attach_applies_thenEveryPollAppliesAChange() throws Exception {
    store.set(qps(50));
    engine.attach(source, RulePart.all());
    assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();
    assertThat(engine.ruleSet()).isEqualTo(RuleSet.of(List.of(FlowRule.qps("search", 50))));

    store.set(qps(80));
    poll();

    assertThat(engine.ruleSet()).isEqualTo(RuleSet.of(List.of(FlowRule.qps("search", 80))));
    assertThat(engine.ruleHistory()).extracting(r -> r.source()).containsOnly("store:test");
  }

  @Test
  void aLookThatThrows_isReported_andTheRulesStay() throws Exception {
    store.set(qps(50));
    engine.attach(source, RulePart.all());
    assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();

    store.set(null);
    poll();
    store.set("{\"version\": 1, \"flow\": [{\"resource\": \"search\", \"qps\": -1}]}");
    poll();

    assertThat(engine.ruleSet()).isEqualTo(RuleSet.of(List.of(FlowRule.qps("search", 50))));
    assertThat(heard.events).hasSize(3);
    assertThat(heard.events.get(1)).contains("store:test", "could not be read", "store down");
    assertThat(heard.events.get(2)).contains("rules.flow[0].qps");
  }

  @Test
  void close_endsThePolling_andASecondAttachIsRefused() throws Exception {
    store.set(qps(50));
    engine.attach(source, RulePart.all());
    assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();

    source.close();
    source.close();

    assertThat(clock.sleepers()).isZero();
    assertThatThrownBy(() -> engine.attach(source, RulePart.all())).isInstanceOf(IllegalStateException.class)
        .hasMessage("store:test is closed");
  }
}
