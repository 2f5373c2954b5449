package dev.guard.rules;

import dev.guard.spi.RulePart;
import static org.assertj.core.api.Assertions.assertThat;
import dev.guard.spi.RuleSource;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/RULES.md, "The file source": a watched file under in-place edits, rename-replace,
 * half-written and truncated content, deletion and re-creation. Polling waits on a parking manual
 * clock: each {@link #poll()} advances it by one interval and waits until the source has looked at
 * the file and parked again, so no test sleeps.
 */
class FileRuleSourceTest {

  private static final Duration INTERVAL = Duration.ofMillis(250);
  private static final Duration PATIENCE = Duration.ofSeconds(10);

  /** What listeners heard, on any thread. */
  static final class Heard implements EngineListener {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void onRulesApplied(RuleSet.Revision revision) {
      events.add("applied " + revision.changes());
    }

    @Override
    public void onRulesInvalid(String source, List<InvalidRulesException.Error> errors) {
      events.add("rejected " + errors);
    }
  }

  @TempDir Path dir;
  private Path file;
  private final ManualClock clock = ManualClock.parking();
  private final Heard heard = new Heard();
  private GuardEngine engine;
  private RuleSource.Writable source;

  @BeforeEach
  void setUp() {
    file = dir.resolve("rules.json");
    engine = GuardEngine.builder().clock(clock).maxResources(10).listener(heard).build();
    source = RuleSources.file(file, INTERVAL);
  }

  @AfterEach
  void tearDown() {
    source.close();
  }

  private static String qps(String resource, int qps) {
    return "{\"version\": 1, \"flow\": [{\"resource\": \"" + resource + "\", \"qps\": " + qps
        + "}]}";
  }

  private void write(String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private void attach() throws InterruptedException {
    engine.attach(source, RulePart.all());
    assertThat(clock.awaitSleepers(1, PATIENCE)).as("the source polls").isTrue();
  }

  /** One poll interval passes; returns once the source looked at the file and waits again. */
  private void poll() throws InterruptedException {
    clock.advance(INTERVAL);
    assertThat(clock.awaitSleepers(1, PATIENCE)).as("the source polls again").isTrue();
  }

  private RuleSet rules(String resource, int qps) {
    return RuleSet.of(List.of(FlowRule.qps(resource, qps)));
  }

  @Test
  void attach_appliesTheFileBeforeItReturns() throws Exception {
    write(qps("search", 50));

    engine.attach(source, RulePart.all());

    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));
    assertThat(engine.ruleHistory()).singleElement()
        .extracting(RuleSet.Revision::source).isEqualTo("file:" + file.toAbsolutePath());
  }

  @Test
  void editInPlace_appliesAtTheNextPoll() throws Exception {
    write(qps("search", 50));
    attach();

    write(qps("search", 80));
    poll();

    assertThat(engine.ruleSet()).isEqualTo(rules("search", 80));
    assertThat(heard.events).containsExactly(
        "applied 1 added, 0 removed on [search]", "applied 1 added, 1 removed on [search]");
  }

  @Test
  void unchangedFile_isNotAppliedAgain() throws Exception {
    write(qps("search", 50));
    attach();

    poll();
    poll();

    assertThat(engine.ruleHistory()).hasSize(1);
  }

  @Test
  void renameReplace_appliesTheNewFile() throws Exception {
    write(qps("search", 50));
    attach();

    Path swap = dir.resolve("rules.json.swp");
    Files.writeString(swap, qps("search", 70));
    Files.move(swap, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    poll();

    assertThat(engine.ruleSet()).isEqualTo(rules("search", 70));
  }

  @Test
  void halfWrittenFile_keepsTheRules_andAppliesOnceComplete_withoutAReport() throws Exception {
    write(qps("search", 50));
    attach();
    String next = qps("search", 60);

    write(next.substring(0, next.length() / 2));
    poll();
    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));

    write(next);
    poll();

    assertThat(engine.ruleSet()).isEqualTo(rules("search", 60));
    assertThat(heard.events).noneMatch(event -> event.startsWith("rejected"));
  }

  @Test
  void invalidFile_keepsTheRules_andIsReportedOnceAfterTwoPolls() throws Exception {
    write(qps("search", 50));
    attach();

    write(qps("search", -5));
    poll();
    assertThat(heard.events).noneMatch(event -> event.startsWith("rejected"));
    poll();
    poll();

    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));
    assertThat(heard.events).filteredOn(event -> event.startsWith("rejected")).containsExactly(
        "rejected [rules.flow[0].qps: must be finite and >= 0, was -5]");
  }

  @Test
  void truncatedFile_keepsTheRules_thenTheRewriteApplies() throws Exception {
    write(qps("search", 50));
    attach();

    write("");
    poll();
    poll();
    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));
    assertThat(heard.events).contains("rejected [rules: the document is empty]");

    write(qps("search", 40));
    poll();
    assertThat(engine.ruleSet()).isEqualTo(rules("search", 40));
  }

  @Test
  void deletedFile_keepsTheRules_andRecreationApplies() throws Exception {
    write(qps("search", 50));
    attach();

    Files.delete(file);
    poll();
    poll();
    poll();
    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));
    assertThat(heard.events).filteredOn(event -> event.startsWith("rejected")).containsExactly(
        "rejected [file:" + file.toAbsolutePath() + ": does not exist; the rules in force stay]");

    write(qps("orders", 5));
    poll();
    assertThat(engine.ruleSet()).isEqualTo(rules("orders", 5));
  }

  @Test
  void missingAtAttach_isReportedAtOnce_andAppliesWhenCreated() throws Exception {
    attach();
    assertThat(heard.events).hasSize(1).allMatch(event -> event.contains("does not exist"));

    write(qps("search", 50));
    poll();

    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));
  }

  @Test
  void setTheEngineRefuses_isReportedOnce_andNotRetriedUntilTheFileChanges() throws Exception {
    write(qps("search", 50));
    attach();
    StringBuilder many = new StringBuilder("{\"version\": 1, \"flow\": [");
    for (int i = 0; i < 11; i++) {
      many.append(i == 0 ? "" : ", ").append("{\"resource\": \"r").append(i)
          .append("\", \"qps\": 1}");
    }
    write(many.append("]}").toString());

    poll();
    poll();

    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));
    assertThat(heard.events).filteredOn(event -> event.startsWith("rejected")).hasSize(1);
  }

  @Test
  void write_appliesThenStores_andTheNextPollSeesNoChange() throws Exception {
    write(qps("search", 50));
    attach();

    source.write(rules("search", 90));
    poll();

    assertThat(engine.ruleSet()).isEqualTo(rules("search", 90));
    assertThat(RuleFormat.parse(Files.readString(file))).isEqualTo(rules("search", 90));
    assertThat(engine.ruleHistory()).hasSize(2);
  }

  @Test
  void write_setTheEngineRefuses_leavesTheFileAlone() throws Exception {
    write(qps("search", 50));
    attach();
    RuleSet tooMany = RuleSet.of(java.util.stream.IntStream.range(0, 11)
        .mapToObj(i -> FlowRule.qps("r" + i, 1)).toList());

    assertThatThrownBy(() -> source.write(tooMany)).isInstanceOf(InvalidRulesException.class);

    assertThat(Files.readString(file)).isEqualTo(qps("search", 50));
  }

  @Test
  void close_stopsWatching_andKeepsTheRules() throws Exception {
    write(qps("search", 50));
    attach();

    source.close();
    write(qps("search", 10));
    clock.advance(INTERVAL.multipliedBy(4));

    assertThat(clock.sleepers()).isZero();
    assertThat(engine.ruleSet()).isEqualTo(rules("search", 50));
    assertThatThrownBy(() -> source.write(rules("a", 1))).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void start_twice_isRefused() throws Exception {
    write(qps("search", 50));
    attach();

    assertThatThrownBy(() -> engine.attach(source, RulePart.all())).isInstanceOf(IllegalStateException.class);
  }
}
