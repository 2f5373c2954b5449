package dev.guard.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownReportTest {
  private static final MarkdownReport.Machine MACHINE =
      new MarkdownReport.Machine(
          ZonedDateTime.of(2026, 1, 2, 3, 4, 0, 0, ZoneOffset.UTC), 2, "Linux amd64", 0.5);

  /** Shaped like JMH 1.37's {@code -rf json} output, trimmed to the fields that matter. */
  private static String result(String benchmark, int threads, String error, String gc) {
    return result(benchmark, threads, error, gc, "[ [ 123.0, 124.0, 123.4 ] ]");
  }

  private static String result(
      String benchmark, int threads, String error, String gc, String rawData) {
    return """
        {
          "jmhVersion" : "1.37",
          "benchmark" : "%s",
          "mode" : "avgt",
          "threads" : %d,
          "forks" : 1,
          "jvm" : "/usr/lib/jvm/java-17/bin/java",
          "jdkVersion" : "17.0.15",
          "vmName" : "OpenJDK 64-Bit Server VM",
          "vmVersion" : "17.0.15+6",
          "warmupIterations" : 2,
          "warmupTime" : "1 s",
          "measurementIterations" : 3,
          "measurementTime" : "1 s",
          "primaryMetric" : {
            "score" : 123.456,
            "scoreError" : %s,
            "scoreConfidence" : [ 120.0, 126.9 ],
            "scoreUnit" : "ns/op",
            "rawData" : %s
          },
          "secondaryMetrics" : { %s }
        }
        """
        .formatted(benchmark, threads, error, rawData, gc);
  }

  private static final String GC =
      """
      "\u00b7gc.alloc.rate" : { "score" : 900.0, "scoreError" : 1.0, "scoreUnit" : "MB/sec" },
      "\u00b7gc.alloc.rate.norm" : { "score" : 584.1, "scoreError" : 0.2, "scoreUnit" : "B/op" }
      """;

  @Test
  void readAll_jmhJson_extractsScenarioLibraryThreadsScoreAndAllocation() {
    String json =
        "[" + result("dev.guard.benchmarks.QpsPassBenchmark.sentinel", 2, "3.21", GC) + "]";

    BenchmarkResult r = BenchmarkResult.readAll(json).get(0);

    assertThat(r.scenario()).isEqualTo("QpsPass");
    assertThat(r.library()).isEqualTo("sentinel");
    assertThat(r.threads()).isEqualTo(2);
    assertThat(r.score()).isEqualTo(123.456);
    assertThat(r.error()).isEqualTo(3.21);
    assertThat(r.unit()).isEqualTo("ns/op");
    assertThat(r.bytesPerOp()).hasValue(584.1);
    assertThat(r.jvm()).isEqualTo("17.0.15, OpenJDK 64-Bit Server VM 17.0.15+6");
  }

  @Test
  void readAll_errorNaNAndNoProfiler_leavesThemOut() {
    String json =
        "[" + result("dev.guard.benchmarks.BaselineBenchmark.nanoTime", 1, "\"NaN\"", "") + "]";

    BenchmarkResult r = BenchmarkResult.readAll(json).get(0);

    assertThat(r.error()).isNaN();
    assertThat(r.bytesPerOp()).isEmpty();
    assertThat(MarkdownReport.render(List.of(r), MACHINE))
        .contains("| Baseline | nanoTime | 1 | 123.5 | – | – |");
  }

  @Test
  void render_rows_sortedByScenarioThenLibraryThenThreads() {
    String json =
        "["
            + String.join(
                ",",
                result("dev.guard.benchmarks.BaselineBenchmark.supplier", 1, "0.1", GC),
                result("dev.guard.benchmarks.QpsPassBenchmark.guava", 1, "0.1", GC),
                result("dev.guard.benchmarks.QpsPassBenchmark.sentinel", 2, "0.1", GC),
                result("dev.guard.benchmarks.QpsPassBenchmark.sentinel", 1, "0.1", GC),
                result("dev.guard.benchmarks.QpsPassBenchmark.guard", 1, "0.1", GC))
            + "]";

    String md = MarkdownReport.render(BenchmarkResult.readAll(json), MACHINE);

    assertThat(md)
        .containsSubsequence(
            "| QpsPass | guard | 1 |",
            "| QpsPass | sentinel | 1 |",
            "| QpsPass | sentinel | 2 |",
            "| QpsPass | guava | 1 |",
            "| Baseline | supplier | 1 |");
    assertThat(md).contains("| QpsPass | guava | 1 | 123.5 ± 0.1 | – | 584 |");
  }

  @Test
  void render_header_recordsDateJvmCoresAndSettings() {
    String json = "[" + result("dev.guard.benchmarks.QpsPassBenchmark.guava", 1, "0.1", GC) + "]";

    String md = MarkdownReport.render(BenchmarkResult.readAll(json), MACHINE);

    assertThat(md)
        .contains("| Date | 2026-01-02 03:04 UTC |")
        .contains("| JVM | 17.0.15, OpenJDK 64-Bit Server VM 17.0.15+6 |")
        .contains("| Cores | 2 |")
        .contains("| Settings | JMH 1.37; 1 fork(s), 2 × 1 s warm-up, 3 × 1 s measurement |")
        .contains("| Scenario | Library | Threads | ns/op | fork median | B/op |");
  }

  @Test
  void readAll_threeOrMoreForks_reportsTheMedianOfTheForksMeans() {
    String json = "[" + String.join(",",
        result("dev.guard.benchmarks.QpsPassBenchmark.guard", 1, "9.9", GC,
            "[ [ 70.0, 80.0 ], [ 150.0, 150.0 ], [ 74.0, 76.0 ] ]"),
        result("dev.guard.benchmarks.QpsPassBenchmark.guava", 1, "9.9", GC,
            "[ [ 60.0 ], [ 90.0 ], [ 64.0 ], [ 70.0 ] ]")) + "]";

    List<BenchmarkResult> rows = BenchmarkResult.readAll(json);

    assertThat(rows.get(0).forkMedian()).isEqualTo(75.0);
    assertThat(rows.get(1).forkMedian()).isEqualTo(67.0);
    assertThat(MarkdownReport.render(rows, MACHINE))
        .contains("| QpsPass | guard | 1 | 123.5 ± 9.9 | 75.0 | 584 |");
  }

  @Test
  void readAll_notAnArray_isRejected() {
    assertThatThrownBy(() -> BenchmarkResult.readAll("{}"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
