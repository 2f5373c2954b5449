package dev.guard.rules;

import dev.guard.spi.RulePart;
import static org.assertj.core.api.Assertions.assertThat;
import dev.guard.spi.RuleSource;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A polling source on an engine whose clock is the default {@code new ManualClock()} (the
 * advancing mode) follows the test's time: it looks again when the test has advanced the clock by
 * its poll interval, and its waits never move the clock (docs/BEHAVIOUR.md, "Time").
 */
class AdvancingClockRuleSourceTest {

  private static final Duration INTERVAL = Duration.ofSeconds(5);
  private static final Duration PATIENCE = Duration.ofSeconds(10);

  @TempDir Path dir;
  private Path file;
  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();
  private RuleSource.Writable source;

  @BeforeEach
  void setUp() throws IOException {
    file = dir.resolve("rules.json");
    write(50);
    source = RuleSources.file(file, INTERVAL);
  }

  @AfterEach
  void tearDown() {
    source.close();
  }

  private void write(int qps) throws IOException {
    Files.writeString(file, "{\"version\": 1, \"flow\": [{\"resource\": \"search\", \"qps\": " + qps
        + "}]}", StandardCharsets.UTF_8);
  }

  private static RuleSet rules(int qps) {
    return RuleSet.of(List.of(FlowRule.qps("search", qps)));
  }

  @Test
  void attach_pollerWaitsForTheTest_withoutMovingTheClock() throws InterruptedException {
    engine.attach(source, RulePart.all());

    assertThat(clock.awaitSleepers(1, PATIENCE)).as("the poller parks on the clock").isTrue();
    assertThat(clock.nanoTime()).as("no engine time passed by itself").isZero();
    assertThat(engine.ruleSet()).isEqualTo(rules(50));
  }

  @Test
  void advanceByTheInterval_looksAgain_andAppliesTheChange() throws Exception {
    engine.attach(source, RulePart.all());
    assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();
    write(80);

    clock.advance(INTERVAL.minusNanos(1));
    assertThat(clock.sleepers()).as("not yet due").isEqualTo(1);
    clock.advanceNanos(1);

    assertThat(clock.awaitSleepers(1, PATIENCE)).as("looked and waits again").isTrue();
    assertThat(engine.ruleSet()).isEqualTo(rules(80));
    assertThat(clock.nanoTime()).isEqualTo(INTERVAL.toNanos());
  }

  @Test
  void pacedCallsOnTheTestThread_moveTimeForThePollerToo() throws Exception {
    engine.attach(source, RulePart.all());
    assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();
    write(80);

    clock.sleep(INTERVAL.toNanos()); // what a paced call does on an advancing clock

    assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();
    assertThat(engine.ruleSet()).isEqualTo(rules(80));
  }
}
