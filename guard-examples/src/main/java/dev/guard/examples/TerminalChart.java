package dev.guard.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws passed and refused calls per second as horizontal bars: {@value #PASSED} for passed,
 * {@value #FAILED} for passed calls that failed, {@value #REFUSED} for refused, one line per
 * second.
 *
 * <p><b>Scaling.</b> One column stands for a whole number of calls, {@code ⌈max / width⌉} where
 * {@code max} is the busiest second of the series, so the longest bar fits in {@code width}
 * columns. A bar is {@code round(total / perColumn)} columns long, of which {@code round(passed /
 * perColumn)} are passed; rounding the total (not each part) keeps bar lengths proportional to
 * the load.
 *
 * <pre>
 *    1s ███████░░░░░░░░░░░░░░░░░░░░   13   87
 * </pre>
 */
final class TerminalChart {

  static final char PASSED = '█';
  static final char REFUSED = '░';
  static final char FAILED = '▓';

  private final int width;

  /**
   * Creates a chart.
   *
   * @param width the most columns a bar may take; positive
   */
  TerminalChart(int width) {
    if (width <= 0) {
      throw new IllegalArgumentException("width must be > 0, was " + width);
    }
    this.width = width;
  }

  /**
   * Calls per column so that the busiest second fits: {@code ⌈maxTotal / width⌉}, at least 1.
   *
   * @param maxTotal the largest passed + refused count of the series
   * @return the calls one column stands for
   */
  long callsPerColumn(long maxTotal) {
    return Math.max(1, (maxTotal + width - 1) / width);
  }

  /**
   * One bar, padded with spaces to the chart width.
   *
   * @param passed the passed calls
   * @param refused the refused calls
   * @param perColumn the calls one column stands for
   * @return exactly {@code width} characters
   */
  String bar(long passed, long refused, long perColumn) {
    return bar(passed, 0, refused, perColumn);
  }

  /**
   * One bar whose passed part shows the calls that failed last.
   *
   * @param passed the passed calls, failed ones included
   * @param failed the passed calls that failed
   * @param refused the refused calls
   * @param perColumn the calls one column stands for
   * @return exactly {@code width} characters
   */
  String bar(long passed, long failed, long refused, long perColumn) {
    int total = columns(passed + refused, perColumn);
    int pass = Math.min(columns(passed, perColumn), total);
    int ok = Math.min(columns(passed - failed, perColumn), pass);
    return String.valueOf(PASSED).repeat(ok)
        + String.valueOf(FAILED).repeat(pass - ok)
        + String.valueOf(REFUSED).repeat(total - pass)
        + " ".repeat(width - total);
  }

  /**
   * The chart of one series: a title line, then one labelled line per second.
   *
   * @param title the heading
   * @param passed passed calls per second
   * @param refused refused calls per second, as long as {@code passed}
   * @return the lines, without line separators
   */
  List<String> render(String title, long[] passed, long[] refused) {
    return render(title, passed, new long[passed.length], refused);
  }

  /**
   * The chart of one series whose passed calls may have failed; when none failed it is the chart
   * of {@link #render(String, long[], long[])}, otherwise the legend names {@value #FAILED} and
   * each line ends with its failed count.
   *
   * @param title the heading
   * @param passed passed calls per second, failed ones included
   * @param failed passed calls that failed, per second, as long as {@code passed}
   * @param refused refused calls per second, as long as {@code passed}
   * @return the lines, without line separators
   */
  List<String> render(String title, long[] passed, long[] failed, long[] refused) {
    if (passed.length != failed.length) {
      throw new IllegalArgumentException(
          "passed and failed must have the same length, were " + passed.length + " and "
              + failed.length);
    }
    if (passed.length != refused.length) {
      throw new IllegalArgumentException(
          "passed and refused must have the same length, were " + passed.length + " and "
              + refused.length);
    }
    long max = 0;
    for (int i = 0; i < passed.length; i++) {
      max = Math.max(max, passed[i] + refused[i]);
    }
    boolean failures = false;
    for (long f : failed) {
      failures |= f > 0;
    }
    long perColumn = callsPerColumn(max);
    List<String> lines = new ArrayList<>();
    lines.add(title + "   " + PASSED + " passed  " + (failures ? FAILED + " failed  " : "")
        + REFUSED + " refused  (one column = " + perColumn + (perColumn == 1 ? " call)" : " calls)"));
    for (int i = 0; i < passed.length; i++) {
      String line = String.format(Locale.ROOT, "%4ds %s %4d %4d",
          i + 1, bar(passed[i], failed[i], refused[i], perColumn), passed[i], refused[i]);
      lines.add(failures ? line + String.format(Locale.ROOT, " %4d", failed[i]) : line);
    }
    return lines;
  }

  private int columns(long calls, long perColumn) {
    return (int) Math.min(width, Math.round((double) calls / perColumn));
  }
}
