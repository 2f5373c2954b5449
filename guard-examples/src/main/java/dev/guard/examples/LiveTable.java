package dev.guard.examples;

import java.util.List;
import java.util.Locale;

/**
 * Formats the per-second table printed while the demo runs: one row per second, a passed and a
 * refused column per endpoint. Pure formatting; the caller decides when to print.
 *
 * <pre>
 *  sec │     search    │    checkout   │
 *      │ passed refused│ passed refused│
 *    1 │     50      30│     13      87│
 * </pre>
 */
final class LiveTable {

  private static final int CELL = 15;

  private LiveTable() {}

  /** The two header lines for the given endpoint names. */
  static List<String> header(List<String> names) {
    StringBuilder titles = new StringBuilder(" sec ");
    StringBuilder units = new StringBuilder("     ");
    for (String name : names) {
      titles.append('│').append(centered(name, CELL));
      units.append('│').append(" passed refused");
    }
    return List.of(titles.toString(), units.toString());
  }

  /**
   * One row.
   *
   * @param label the row label, at most four characters (a second number, or "late")
   * @param passed passed calls per endpoint
   * @param refused refused calls per endpoint, in the same order
   * @return the formatted row
   */
  static String row(String label, long[] passed, long[] refused) {
    if (passed.length != refused.length) {
      throw new IllegalArgumentException(
          "passed and refused must have the same length, were " + passed.length + " and "
              + refused.length);
    }
    StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%4s ", label));
    for (int i = 0; i < passed.length; i++) {
      row.append('│').append(String.format(Locale.ROOT, "%7d %7d", passed[i], refused[i]));
    }
    return row.toString();
  }

  /** The row of one second (0-based) of the given meters, labelled 1-based. */
  static String row(int second, List<EndpointMeter> meters) {
    long[] passed = new long[meters.size()];
    long[] refused = new long[meters.size()];
    for (int i = 0; i < meters.size(); i++) {
      passed[i] = meters.get(i).counters().passed(second);
      refused[i] = meters.get(i).counters().refused(second);
    }
    boolean late = second == meters.get(0).counters().seconds();
    return row(late ? "late" : Integer.toString(second + 1), passed, refused);
  }

  private static String centered(String text, int width) {
    if (text.length() >= width) {
      return text.substring(0, width);
    }
    int left = (width - text.length()) / 2;
    return " ".repeat(left) + text + " ".repeat(width - text.length() - left);
  }
}
