package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.MetricsLog;
import dev.guard.testing.Await;
import dev.guard.testsupport.Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Metrics log files (docs/BEHAVIOUR.md, "Metrics log files"): format, exactly once, rolling. */
class MetricsLogTest {

  @TempDir Path dir;

  @Test
  void eachRecordedSecond_isOneLine_withTheDocumentedColumns() throws IOException {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("checkout", List.of(FlowRule.qps("checkout", 2))));
    MetricsLog log = MetricsLog.builder(s.engine, dir).open();
    s.at(1000);
    assertThat(s.calls("checkout", 3)).isEqualTo("PPB");
    s.at(2000);
    try (Entry entry = s.engine.resource("checkout").enter()) {
      s.at(2040);
    }
    s.at(3000);

    assertThat(log.writeRecorded()).isEqualTo(2);

    assertThat(Files.readAllLines(log.file())).containsExactly(
        MetricsLog.HEADER,
        "61000|1970-01-01T00:01:01Z|checkout|2|1|1|0|0|0|0|2|0|0|0|0|0|-1",
        "62000|1970-01-01T00:01:02Z|checkout|1|0|0|0|0|0|0|1|0|40|40|0|0|-1");
    assertThat(log.file()).hasFileName("guard-metrics.log");
  }

  @Test
  void secondsAreWrittenOnce_inTimeOrder_resourcesByName() throws IOException {
    Scenario s = new Scenario();
    MetricsLog log = MetricsLog.builder(s.engine, dir).name("shop").open();
    s.at(1000);
    s.calls("b", 1);
    s.calls("a", 1);
    s.at(2000);
    assertThat(log.writeRecorded()).isEqualTo(2);
    assertThat(log.writeRecorded()).isZero();
    s.calls("a", 2);
    s.at(3000);
    assertThat(log.writeRecorded()).isEqualTo(1);

    assertThat(Files.readAllLines(dir.resolve("shop.log")))
        .extracting(line -> line.startsWith("#") ? "#" : line.split("\\|")[0] + " "
            + line.split("\\|")[2] + " " + line.split("\\|")[3])
        .containsExactly("#", "61000 a 1", "61000 b 1", "62000 a 2");
  }

  @Test
  void resourceNames_areEncoded_soEveryLineHasSeventeenFields() throws IOException {
    Scenario s = new Scenario();
    MetricsLog log = MetricsLog.builder(s.engine, dir).open();
    s.at(1000);
    s.calls("GET /a|b%c", 1);
    s.at(2000);
    log.writeRecorded();

    String line = Files.readAllLines(log.file()).get(1);
    assertThat(line.split("\\|", -1)).hasSize(17);
    assertThat(line.split("\\|")[2]).isEqualTo("GET /a%7Cb%25c");
  }

  @Test
  void files_rollAtTheSizeBound_andTheOldestGo() throws IOException {
    Scenario s = new Scenario();
    MetricsLog log = MetricsLog.builder(s.engine, dir).maxFileBytes(1024).maxFiles(3).open();
    for (int second = 1; second <= 200; second++) {
      s.at(second * 1000L);
      s.calls("r", 1);
      log.writeRecorded();
    }
    s.at(201_000);
    log.writeRecorded();
    log.close();

    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("guard-metrics.log", "guard-metrics.log.1",
              "guard-metrics.log.2");
    }
    List<Long> seconds = new ArrayList<>();
    for (String name : List.of("guard-metrics.log.2", "guard-metrics.log.1", "guard-metrics.log")) {
      Path file = dir.resolve(name);
      assertThat(Files.size(file)).isLessThanOrEqualTo(1024);
      List<String> lines = Files.readAllLines(file);
      assertThat(lines.get(0)).isEqualTo(MetricsLog.HEADER);
      lines.stream().skip(1).forEach(l -> seconds.add(Long.parseLong(l.split("\\|")[0])));
    }
    assertThat(seconds).last().isEqualTo(260_000L);
    assertThat(seconds).isSortedAccordingTo(Long::compare);
    for (int i = 1; i < seconds.size(); i++) {
      assertThat(seconds.get(i) - seconds.get(i - 1)).as("no second lost").isEqualTo(1000L);
    }
  }

  @Test
  void close_writesWhatIsLeft_thenRefusesMorePasses() throws IOException {
    Scenario s = new Scenario();
    MetricsLog log = MetricsLog.builder(s.engine, dir).open();
    s.at(1000);
    s.calls("r", 1);
    s.at(2000);

    log.close();
    log.close();

    assertThat(Files.readAllLines(log.file())).hasSize(2);
    assertThatThrownBy(log::writeRecorded).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void aStartedLog_writesOnItsOwnThread() throws IOException {
    Scenario s = new Scenario();
    try (MetricsLog log = MetricsLog.builder(s.engine, dir).interval(Duration.ofMillis(100))
        .start()) {
      s.at(1000);
      s.calls("r", 1);
      s.at(2000);
      Await.until("the log's own thread writes " + log.file(), Duration.ofSeconds(20),
          () -> Files.exists(log.file()));
      assertThat(log.lastError()).isNull();
    }
  }

  @Test
  void badOptions_areRefused_namingTheFieldAndValue() {
    Scenario s = new Scenario();
    MetricsLog.Builder builder = MetricsLog.builder(s.engine, dir);

    assertThatThrownBy(() -> builder.maxFileBytes(10))
        .hasMessage("maxFileBytes must be >= 1024, was 10");
    assertThatThrownBy(() -> builder.maxFiles(0)).hasMessage("maxFiles must be in [1, 1000], was 0");
    assertThatThrownBy(() -> builder.interval(Duration.ofMinutes(1)))
        .hasMessage("interval must be from 100 ms to 30 s, was PT1M");
    assertThatThrownBy(() -> builder.name("../x")).hasMessage("name must be a plain file name, was ../x");
  }
}
