package dev.guard.redis;

import dev.guard.api.PeriodStats;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The text a {@link RedisFleet} keeps in Redis for one second of one instance, and the checks
 * every reader makes of what another instance wrote (docs/BEHAVIOUR.md, "The fleet").
 *
 * <p>One second is one list entry: a first line {@code s <epoch second>}, then a line per
 * resource, {@code <name, URL-encoded> <pass> <refused> <success> <exception> <rtSumMs>
 * <concurrency>}, separated by single spaces. A reader takes an entry whole or not at all: a line
 * that does not parse, a count that is negative or over {@link #MAX_COUNT}, a name longer than
 * {@link #MAX_NAME_CHARS}, more than {@link #MAX_LINES} resources or a second named twice makes it
 * skip the entry and count it. Nothing in an entry is ever run or looked up: it is numbers and
 * names.
 */
final class FleetCodec {

  /** The most bytes one second's entry may hold; a writer leaves its least busy resources out. */
  static final int MAX_ENTRY_BYTES = 64 * 1024;
  /** The most resources one second's entry may list. */
  static final int MAX_LINES = 1000;
  /** The longest resource name (decoded) a reader accepts. */
  static final int MAX_NAME_CHARS = 1024;
  /** The largest count a reader accepts in one second of one instance. */
  static final long MAX_COUNT = 1L << 40;

  private FleetCodec() {}

  /** One resource's figures in one second. */
  record Line(String resource, long pass, long refused, long success, long exception,
      long rtSumMs, long concurrency) {}

  /** One second of one instance, as read. */
  record Entry(long epochSecond, List<Line> lines) {}

  /**
   * Writes one second: the busiest resources first, as many as fit in {@link #MAX_ENTRY_BYTES}
   * and {@link #MAX_LINES}.
   *
   * @param seconds each resource's figures of that second (seconds without calls left out)
   * @return the entry, and how many resources were left out
   */
  static Encoded encode(long epochSecond, Map<String, PeriodStats> seconds) {
    List<Map.Entry<String, PeriodStats>> busiest = new ArrayList<>(seconds.entrySet());
    busiest.sort(Comparator.comparingLong(
        (Map.Entry<String, PeriodStats> e) -> e.getValue().total()).reversed());
    StringBuilder out = new StringBuilder("s ").append(epochSecond);
    int written = 0;
    for (Map.Entry<String, PeriodStats> resource : busiest) {
      PeriodStats s = resource.getValue();
      String line = "\n" + URLEncoder.encode(resource.getKey(), StandardCharsets.UTF_8) + ' '
          + s.pass() + ' ' + s.refused() + ' ' + s.success() + ' ' + s.exception() + ' '
          + s.rtSumMs() + ' ' + s.concurrency();
      if (written == MAX_LINES || out.length() + line.length() > MAX_ENTRY_BYTES) {
        break; // the characters are ASCII: as many bytes
      }
      out.append(line);
      written++;
    }
    return new Encoded(out.toString(), busiest.size() - written);
  }

  /** An entry to store and the resources it left out. */
  record Encoded(String text, int leftOut) {}

  /**
   * Reads one entry another instance wrote.
   *
   * @return the entry, or null if it is malformed in any way
   */
  static @Nullable Entry decode(@Nullable String text) {
    if (text == null || text.isEmpty() || text.length() > MAX_ENTRY_BYTES) {
      return null;
    }
    String[] lines = text.split("\n", -1);
    if (lines.length - 1 > MAX_LINES || !lines[0].startsWith("s ")) {
      return null;
    }
    long second = number(lines[0].substring(2), Long.MAX_VALUE / 1000);
    if (second < 0) {
      return null;
    }
    Map<String, Line> read = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      Line line = line(lines[i]);
      if (line == null || read.put(line.resource(), line) != null) {
        return null;
      }
    }
    return new Entry(second, List.copyOf(read.values()));
  }

  private static @Nullable Line line(String text) {
    String[] parts = text.split(" ", -1);
    if (parts.length != 7) {
      return null;
    }
    String name;
    try {
      name = URLDecoder.decode(parts[0], StandardCharsets.UTF_8);
    } catch (IllegalArgumentException malformed) {
      return null;
    }
    if (name.isBlank() || name.length() > MAX_NAME_CHARS) {
      return null;
    }
    long[] n = new long[6];
    for (int i = 0; i < 6; i++) {
      n[i] = number(parts[i + 1], MAX_COUNT);
      if (n[i] < 0) {
        return null;
      }
    }
    return new Line(name, n[0], n[1], n[2], n[3], n[4], n[5]);
  }

  /**
   * A decimal number from 0 to {@code max}, or -1 when the text is anything else (a sign, a
   * space, too many digits).
   */
  static long number(@Nullable String text, long max) {
    if (text == null || text.isEmpty() || text.length() > 19) {
      return -1;
    }
    long value = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
      if (value > max) {
        return -1;
      }
    }
    return value;
  }
}
