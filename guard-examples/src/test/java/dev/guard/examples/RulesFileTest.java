package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.engine.GuardEngine;
import dev.guard.rules.RuleSources;
import dev.guard.spi.RuleSource;
import dev.guard.testkit.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's rules file: applied at start, and an edit saved while the demo runs shows up. */
class RulesFileTest {

  @TempDir Path dir;

  @Test
  void shippedRules_areTheShopsDeclaredRules() throws Exception {
    RulesFile shipped = new RulesFile(Path.of("shop-rules.json"));

    assertThat(shipped.read().rules())
        .containsExactlyInAnyOrderElementsOf(Shop.endpoints(GuardEngine.builder().build())
            .stream().flatMap(endpoint -> endpoint.guard().rules().stream()).toList());
  }

  @Test
  void editWhileRunning_isAppliedAndShownAsNews() throws Exception {
    Path file = dir.resolve("rules.json");
    Files.copy(Path.of("shop-rules.json"), file);
    ManualClock clock = ManualClock.parking();
    RulesFile rules = new RulesFile(file);
    GuardEngine engine = rules.listenTo(GuardEngine.builder().clock(clock)).build();
    try (RuleSource.Writable source = rules.attach(engine)) {
      assertThat(clock.awaitSleepers(1, Duration.ofSeconds(10))).isTrue();
      assertThat(RulesFile.describe(engine.rules("search"))).isEqualTo("qps(50)");
      assertThat(rules.drain()).isEmpty();

      Files.writeString(file, Files.readString(file).replace("\"qps\": 50", "\"qps\": 80"));
      clock.advance(Duration.ofMillis(RuleSources.DEFAULT_FILE_POLL.toMillis()));
      assertThat(clock.awaitSleepers(1, Duration.ofSeconds(10))).isTrue();

      assertThat(RulesFile.describe(engine.rules("search"))).isEqualTo("qps(80)");
      assertThat(rules.drain()).containsExactly("rules file changed, applied: search qps(80)");
    }
  }

  @Test
  void describe_readsLikeTheDsl() {
    RulesFile shipped = new RulesFile(Path.of("shop-rules.json"));

    assertThat(RulesFile.describe(shipped.read().rulesOf("checkout")))
        .isEqualTo("qps(40).warmUp(10 s)");
    assertThat(RulesFile.describe(shipped.read().rulesOf("payments")))
        .isEqualTo("qps(20).pacing(500 ms)");
    assertThat(RulesFile.describe(shipped.read().rulesOf("reports"))).isEqualTo("concurrency(4)");
    assertThat(RulesFile.describe(shipped.read().rulesOf("profile"))).isEqualTo("perValue(0, 5)");
    assertThat(RulesFile.describe(shipped.read().rulesOf("inventory")))
        .isEqualTo("errorRatio(0.5).openFor(2 s)");
  }
}
