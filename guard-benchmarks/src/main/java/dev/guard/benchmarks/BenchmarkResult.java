package dev.guard.benchmarks;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * One row of a JMH JSON result file, reduced to what the report shows.
 *
 * @param scenario the benchmark class without its {@code Benchmark} suffix, e.g. {@code QpsPass}
 * @param library the benchmark method, e.g. {@code sentinel}, with JMH parameters if any
 * @param threads the number of benchmark threads
 * @param mode JMH's mode, e.g. {@code avgt}
 * @param score the primary score
 * @param error the half-width of the 99.9 % confidence interval, NaN when JMH could not compute it
 * @param unit the primary score's unit, e.g. {@code ns/op}
 * @param forkMedian the median of the forks' mean scores, NaN with fewer than 3 forks; a fork that
 *     happens to get a slow code layout (which moves a nanosecond-scale score by 20-50 % on a small
 *     virtual machine) shifts the score but hardly the median
 * @param bytesPerOp the allocation per operation from {@code -prof gc}, if it ran
 * @param jvm the JDK version and VM that ran the benchmark
 * @param settings forks, warm-up and measurement as JMH recorded them
 */
record BenchmarkResult(
    String scenario,
    String library,
    int threads,
    String mode,
    double score,
    double error,
    String unit,
    double forkMedian,
    OptionalDouble bytesPerOp,
    String jvm,
    String settings) {

  /** The secondary metric of JMH's GC profiler that holds bytes allocated per operation. */
  static final String ALLOCATION_METRIC = "gc.alloc.rate.norm";

  /**
   * Reads every result in a JMH JSON document ({@code -rf json}).
   *
   * @throws IllegalArgumentException if the document is not a JMH result array
   */
  static List<BenchmarkResult> readAll(String json) {
    Object root = Json.parse(json);
    if (!(root instanceof List<?> list)) {
      throw new IllegalArgumentException("a JMH JSON result is an array, found " + root);
    }
    return list.stream().map(item -> from(asObject(item, "result"))).toList();
  }

  static BenchmarkResult from(Map<?, ?> result) {
    String benchmark = text(result, "benchmark");
    int method = benchmark.lastIndexOf('.');
    int type = benchmark.lastIndexOf('.', method - 1);
    String scenario = benchmark.substring(type + 1, method).replaceFirst("Benchmark$", "");
    String library = benchmark.substring(method + 1) + params(result.get("params"));
    Map<?, ?> primary = asObject(result.get("primaryMetric"), "primaryMetric");
    return new BenchmarkResult(
        scenario,
        library,
        (int) number(result.get("threads")),
        text(result, "mode"),
        number(primary.get("score")),
        number(primary.get("scoreError")),
        text(primary, "scoreUnit"),
        forkMedian(primary.get("rawData")),
        allocation(result.get("secondaryMetrics")),
        text(result, "jdkVersion") + ", " + text(result, "vmName") + " " + text(result, "vmVersion"),
        settings(result));
  }

  private static String params(@Nullable Object params) {
    if (!(params instanceof Map<?, ?> map) || map.isEmpty()) {
      return "";
    }
    return map.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", ", " (", ")"));
  }

  private static double forkMedian(@Nullable Object rawData) {
    if (!(rawData instanceof List<?> forks) || forks.size() < 3) {
      return Double.NaN;
    }
    double[] means = new double[forks.size()];
    for (int i = 0; i < means.length; i++) {
      if (!(forks.get(i) instanceof List<?> iterations) || iterations.isEmpty()) {
        return Double.NaN;
      }
      means[i] = iterations.stream().mapToDouble(BenchmarkResult::number).average().orElseThrow();
    }
    Arrays.sort(means);
    int middle = means.length / 2;
    return means.length % 2 == 1 ? means[middle] : (means[middle - 1] + means[middle]) / 2;
  }

  private static OptionalDouble allocation(@Nullable Object secondary) {
    if (secondary instanceof Map<?, ?> metrics) {
      for (Map.Entry<?, ?> metric : metrics.entrySet()) {
        // JMH prefixes profiler metrics with a middle dot ("·gc.alloc.rate.norm").
        if (String.valueOf(metric.getKey()).endsWith(ALLOCATION_METRIC)) {
          return OptionalDouble.of(number(asObject(metric.getValue(), "metric").get("score")));
        }
      }
    }
    return OptionalDouble.empty();
  }

  private static String settings(Map<?, ?> result) {
    return "JMH "
        + text(result, "jmhVersion")
        + "; "
        + (int) number(result.get("forks"))
        + " fork(s), "
        + (int) number(result.get("warmupIterations"))
        + " × "
        + text(result, "warmupTime")
        + " warm-up, "
        + (int) number(result.get("measurementIterations"))
        + " × "
        + text(result, "measurementTime")
        + " measurement";
  }

  private static Map<?, ?> asObject(@Nullable Object value, String what) {
    if (value instanceof Map<?, ?> map) {
      return map;
    }
    throw new IllegalArgumentException(what + " is not a JSON object: " + value);
  }

  private static String text(Map<?, ?> object, String key) {
    Object value = object.get(key);
    return value == null || value == Json.NULL ? "?" : String.valueOf(value);
  }

  /** A JSON number, or NaN for anything else (JMH writes an unknown error as the string "NaN"). */
  private static double number(@Nullable Object value) {
    return value instanceof Double d ? d : Double.NaN;
  }
}
