package dev.guard.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Turns JMH JSON result files into a Markdown table: scenario, library, threads, time per call
 * with its error, and bytes allocated per call.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.guard.benchmarks.MarkdownReport OUT.md
 * RESULT.json...}. The header records when the report was written, the JVM that ran the
 * benchmarks, the machine's cores and load, and the JMH settings.
 */
public final class MarkdownReport {
  /** Scenarios in the order the report lists them; others follow alphabetically. */
  private static final List<String> SCENARIO_ORDER =
      List.of(
          "NoRules", "QpsPass", "QpsWithBreaker", "PerValue", "Refusal", "WarmUp", "Pacing",
          "Baseline");

  /** Libraries in the order the report lists them; others follow alphabetically. */
  private static final List<String> LIBRARY_ORDER =
      List.of("guard", "sentinel", "resilience4j", "bucket4j", "guava");

  private static final Map<String, String> SCENARIO_NOTES =
      Map.of(
          "NoRules", "enter and exit a resource that has no rules",
          "QpsPass", "one rate limit of 1e9/s: every call admitted",
          "QpsWithBreaker", "that rate limit plus a circuit breaker that never opens",
          "PerValue", "a per-argument limit, arguments cycling through 1,000 values",
          "Refusal", "nearly every call refused (Sentinel count 0, the others 1 permit/s)",
          "WarmUp", "a warm-up limit of 1e8/s over 10 s, steady state: every call admitted",
          "Pacing", "pacing at 1e9/s with up to 500 ms queueing, steady state: no call waits",
          "Baseline", "no protection: the bare body, a LongAdder increment, a nanoTime read");

  private MarkdownReport() {}

  /**
   * Writes the report.
   *
   * @param args the output file, then one or more JMH JSON result files
   * @throws IOException if a file cannot be read or written
   */
  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: MarkdownReport OUT.md RESULT.json...");
      System.exit(2);
    }
    List<BenchmarkResult> results = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      results.addAll(BenchmarkResult.readAll(Files.readString(Path.of(args[i]))));
    }
    Path out = Path.of(args[0]);
    Path parent = out.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(out, render(results, Machine.current()));
  }

  /** Facts about the machine and moment of the report that the JSON files do not record. */
  record Machine(ZonedDateTime time, int cores, String os, double loadAverage) {
    static Machine current() {
      return new Machine(
          ZonedDateTime.now(ZoneOffset.UTC),
          Runtime.getRuntime().availableProcessors(),
          System.getProperty("os.name", "?") + " " + System.getProperty("os.arch", "?"),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  /** Renders the whole Markdown document. */
  static String render(List<BenchmarkResult> results, Machine machine) {
    List<BenchmarkResult> rows = new ArrayList<>(results);
    rows.sort(
        Comparator.comparing((BenchmarkResult r) -> rank(SCENARIO_ORDER, r.scenario()))
            .thenComparing(BenchmarkResult::scenario)
            .thenComparing(r -> rank(LIBRARY_ORDER, r.library()))
            .thenComparing(BenchmarkResult::library)
            .thenComparingInt(BenchmarkResult::threads));
    StringBuilder md = new StringBuilder();
    md.append("# guard benchmarks: latest run\n\n");
    md.append("Written by `bench/run.sh`; rerun it rather than editing this file.\n\n");
    header(md, rows, machine);
    table(md, rows);
    md.append("\nScenarios:\n\n");
    rows.stream()
        .map(BenchmarkResult::scenario)
        .distinct()
        .forEach(
            s -> md.append("- **").append(s).append("**: ")
                .append(SCENARIO_NOTES.getOrDefault(s, "see its benchmark class"))
                .append('\n'));
    return md.toString();
  }

  private static void header(StringBuilder md, List<BenchmarkResult> rows, Machine machine) {
    md.append("| | |\n|---|---|\n");
    md.append("| Date | ")
        .append(machine.time().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")))
        .append(" |\n");
    md.append("| JVM | ").append(joined(rows, BenchmarkResult::jvm)).append(" |\n");
    md.append("| Cores | ").append(machine.cores()).append(" |\n");
    md.append("| OS | ").append(machine.os()).append(" |\n");
    if (machine.loadAverage() >= 0) {
      md.append("| Load average | ")
          .append(String.format(Locale.ROOT, "%.2f", machine.loadAverage()))
          .append(" (1 min, when the report was written) |\n");
    }
    md.append("| Settings | ").append(joined(rows, BenchmarkResult::settings)).append(" |\n");
    md.append("| Mode | ").append(joined(rows, BenchmarkResult::mode)).append(" |\n\n");
  }

  private static void table(StringBuilder md, List<BenchmarkResult> rows) {
    List<String> units = rows.stream().map(BenchmarkResult::unit).distinct().toList();
    boolean oneUnit = units.size() == 1;
    md.append("Lower is better. ± is JMH's 99.9 % confidence half-width (absent when too few ")
        .append("iterations ran); the fork median is the median of the forks' means (with 3 or ")
        .append("more forks), which one unlucky fork hardly moves; B/op is the allocation per call ")
        .append("measured by `-prof gc`.\n\n");
    md.append("| Scenario | Library | Threads | ")
        .append(oneUnit ? units.get(0) : "time")
        .append(" | fork median | B/op |\n");
    md.append("|---|---|---:|---:|---:|---:|\n");
    for (BenchmarkResult r : rows) {
      md.append("| ").append(r.scenario())
          .append(" | ").append(r.library())
          .append(" | ").append(r.threads())
          .append(" | ").append(time(r, oneUnit))
          .append(" | ").append(median(r.forkMedian()))
          .append(" | ").append(bytes(r.bytesPerOp()))
          .append(" |\n");
    }
  }

  private static int rank(List<String> order, String name) {
    int index = order.indexOf(name);
    return index < 0 ? order.size() : index;
  }

  private static String joined(
      List<BenchmarkResult> rows, Function<BenchmarkResult, String> field) {
    String values = rows.stream().map(field).distinct().collect(Collectors.joining("; "));
    return values.isEmpty() ? "?" : values;
  }

  private static String time(BenchmarkResult r, boolean oneUnit) {
    String text = String.format(Locale.ROOT, "%.1f", r.score());
    if (!Double.isNaN(r.error())) {
      text += String.format(Locale.ROOT, " ± %.1f", r.error());
    }
    return oneUnit ? text : text + " " + r.unit();
  }

  private static String median(double forkMedian) {
    return Double.isNaN(forkMedian) ? "–" : String.format(Locale.ROOT, "%.1f", forkMedian);
  }

  private static String bytes(OptionalDouble bytesPerOp) {
    if (bytesPerOp.isEmpty()) {
      return "–";
    }
    double b = bytesPerOp.getAsDouble();
    if (b < 0.05) {
      return "≈ 0";
    }
    return String.format(Locale.ROOT, b < 10 ? "%.1f" : "%.0f", b);
  }
}
