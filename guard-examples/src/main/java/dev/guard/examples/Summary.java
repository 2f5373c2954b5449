package dev.guard.examples;

import dev.guard.api.RefusedException;
import dev.guard.api.PeriodStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The closing table: per endpoint, what the demo counted itself, the engine's average response
 * time, and whether the engine's own totals agree with the demo's counts. Pure formatting of the
 * given figures.
 */
final class Summary {

  private Summary() {}

  /**
   * The figures of one endpoint.
   *
   * @param name the endpoint
   * @param passed calls the demo saw admitted
   * @param refused calls the demo saw refused
   * @param seconds the length of the run
   * @param averageRtMillis the engine's average response time at the end of the run
   * @param medianGapMillis the median time between two admissions, if there were two
   * @param peakRunning the most admitted calls running at once
   * @param enginePassed the engine's minute total of passes
   * @param engineRefused the engine's minute total of refusals
   */
  record Line(String name, long passed, long refused, int seconds, double averageRtMillis,
      OptionalDouble medianGapMillis, int peakRunning, long enginePassed, long engineRefused) {

    Line {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(medianGapMillis, "medianGapMillis");
      if (seconds <= 0) {
        throw new IllegalArgumentException("seconds must be > 0, was " + seconds);
      }
    }

    /** Admitted calls per second over the whole run. */
    double passesPerSecond() {
      return (double) passed / seconds;
    }

    /** The share of calls admitted, in percent; 0 when there were no calls. */
    double admittedPercent() {
      long total = passed + refused;
      return total == 0 ? 0 : 100.0 * passed / total;
    }

    boolean engineAgrees() {
      return passed == enginePassed && refused == engineRefused;
    }
  }

  /** The table lines: a header, one line per endpoint, a legend and the engine check. */
  static List<String> render(List<Line> lines) {
    List<String> out = new ArrayList<>();
    out.add("endpoint   passed refused admitted passes/s    avg RT  median gap  at once");
    for (Line line : lines) {
      out.add(String.format(Locale.ROOT, "%-9s %7d %7d %7.1f%% %8.1f %6.1f ms %8s ms %8d",
          line.name(), line.passed(), line.refused(), line.admittedPercent(),
          line.passesPerSecond(), line.averageRtMillis(), gap(line.medianGapMillis()),
          line.peakRunning()));
    }
    out.add("");
    out.add("passes/s: passes / run length.   avg RT: engine.stats(name).averageRt() at the end.");
    out.add("median gap: between two passes.  at once: most admitted calls running together.");
    out.addAll(engineCheck(lines));
    return out;
  }

  /**
   * The lines of an endpoint called on behalf of users: passes and refusals per user.
   *
   * @param endpoint the endpoint's name
   * @param users the users, in display order
   * @param passed each user's passed calls
   * @param refused each user's refused calls, in the same order
   * @param seconds the length of the run
   * @return the lines
   */
  static List<String> perUser(
      String endpoint, List<String> users, long[] passed, long[] refused, int seconds) {
    if (users.size() != passed.length || users.size() != refused.length) {
      throw new IllegalArgumentException("users, passed and refused must have the same length, were "
          + users.size() + ", " + passed.length + " and " + refused.length);
    }
    List<String> out = new ArrayList<>();
    out.add(endpoint + " per user   passed refused passes/s");
    for (int i = 0; i < users.size(); i++) {
      out.add(String.format(Locale.ROOT, "  %-14s %7d %7d %8.1f", users.get(i), passed[i],
          refused[i], (double) passed[i] / seconds));
    }
    return out;
  }

  /**
   * The lines read from the engine's per-second metrics history: per endpoint, the seconds
   * recorded, the busiest second and the refusals by kind.
   *
   * @param histories per endpoint name, its recorded seconds
   * @return the lines
   */
  static List<String> fromHistory(java.util.Map<String, List<PeriodStats>> histories) {
    List<String> out = new ArrayList<>();
    out.add("from engine.metricsHistory(name): seconds, busiest second, refusals by kind");
    histories.forEach((name, seconds) -> {
      long peak = 0;
      long[] byKind = new long[RefusedException.Kind.values().length];
      for (PeriodStats second : seconds) {
        peak = Math.max(peak, second.pass());
        for (RefusedException.Kind kind : RefusedException.Kind.values()) {
          byKind[kind.ordinal()] += second.refused(kind);
        }
      }
      StringBuilder kinds = new StringBuilder();
      for (RefusedException.Kind kind : RefusedException.Kind.values()) {
        if (byKind[kind.ordinal()] > 0) {
          kinds.append(' ').append(kind.tag()).append('=').append(byKind[kind.ordinal()]);
        }
      }
      out.add(String.format(Locale.ROOT, "  %-9s %3d s  peak %4d passed/s  refused:%s", name,
          seconds.size(), peak, kinds.length() == 0 ? " none" : kinds));
    });
    return out;
  }

  private static List<String> engineCheck(List<Line> lines) {
    List<String> out = new ArrayList<>();
    for (Line line : lines) {
      if (!line.engineAgrees()) {
        out.add("engine.stats(\"" + line.name() + "\") counted " + line.enginePassed()
            + " passed / " + line.engineRefused() + " refused in its last minute.");
      }
    }
    if (out.isEmpty()) {
      out.add("The engine's own minute totals (totalPass, totalRefused) match these counts.");
    }
    return out;
  }

  private static String gap(OptionalDouble millis) {
    return millis.isPresent() ? String.format(Locale.ROOT, "%.1f", millis.getAsDouble()) : "-";
  }
}
