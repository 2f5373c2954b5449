package dev.guard.testkit;

import dev.guard.testkit.internal.DurationArguments;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;

/**
 * An immutable timetable of call arrivals for a {@code TrafficSimulator}: offsets from the start of
 * a simulation, in nanoseconds, never decreasing, plus a length that the schedule covers.
 *
 * <p>Several arrivals may share an offset; they are then simultaneous calls made one after another
 * at the same clock reading. The length is at least the last offset and is what {@link #then}
 * shifts the next schedule by and what {@link #lasting} repeats. Small schedules combine into
 * larger ones:
 *
 * <pre>{@code
 * // 12 calls at the start of every second, for 16 seconds (192 arrivals)
 * ArrivalSchedule overload = ArrivalSchedule.bursts(12, Duration.ofSeconds(1))
 *     .lasting(Duration.ofSeconds(16));
 * // 10 calls spread evenly over each second (every 100 ms), then 2 quiet seconds, then a burst
 * ArrivalSchedule mixed = ArrivalSchedule.steady(10, Duration.ofSeconds(1))
 *     .lasting(Duration.ofSeconds(3))
 *     .then(ArrivalSchedule.idle(Duration.ofSeconds(2)))
 *     .then(ArrivalSchedule.burst(50));
 * }</pre>
 *
 * <p>A schedule holds at most {@value #MAX_ARRIVALS} arrivals and lasts at most {@link
 * Long#MAX_VALUE} nanoseconds; factories and combinators reject anything larger, and every
 * invalid argument, with an {@link IllegalArgumentException} naming the parameter. Instances are
 * thread-safe.
 */
public final class ArrivalSchedule {

  /** The most arrivals one schedule may hold. */
  public static final int MAX_ARRIVALS = 10_000_000;

  private final long[] offsets;
  private final long lengthNanos;

  private ArrivalSchedule(long[] offsets, long lengthNanos) {
    this.offsets = offsets;
    this.lengthNanos = lengthNanos;
  }

  /**
   * Returns {@code calls} simultaneous arrivals at offset 0; the schedule's length is zero.
   *
   * <pre>{@code
   * ArrivalSchedule.burst(5);   // five calls at once
   * }</pre>
   *
   * @param calls how many arrivals; from 1 to {@value #MAX_ARRIVALS}
   * @return the schedule
   * @throws IllegalArgumentException if {@code calls} is out of range
   */
  public static ArrivalSchedule burst(int calls) {
    long[] offsets = new long[calls(calls)];
    return new ArrivalSchedule(offsets, 0);
  }

  /**
   * Returns {@code calls} simultaneous arrivals at offset 0 in a schedule one {@code period} long,
   * so that {@link #lasting} repeats the burst at the start of every period.
   *
   * <pre>{@code
   * ArrivalSchedule.bursts(12, Duration.ofSeconds(1)).lasting(Duration.ofSeconds(16));
   * }</pre>
   *
   * @param calls how many arrivals per period; from 1 to {@value #MAX_ARRIVALS}
   * @param period the schedule's length; positive
   * @return the schedule
   * @throws IllegalArgumentException if a value is out of range
   */
  public static ArrivalSchedule bursts(int calls, Duration period) {
    long[] offsets = new long[calls(calls)];
    return new ArrivalSchedule(offsets, DurationArguments.positiveNanos("period", period));
  }

  /**
   * Returns {@code calls} arrivals spread evenly over one {@code period}: the k-th arrives at
   * {@code k * period / calls} (rounded down to a nanosecond), and the schedule is one period long.
   *
   * <pre>{@code
   * ArrivalSchedule.steady(4, Duration.ofSeconds(1));   // at 0, 250, 500 and 750 ms
   * }</pre>
   *
   * @param calls how many arrivals per period; from 1 to {@value #MAX_ARRIVALS}
   * @param period the schedule's length; positive
   * @return the schedule
   * @throws IllegalArgumentException if a value is out of range
   */
  public static ArrivalSchedule steady(int calls, Duration period) {
    long[] offsets = new long[calls(calls)];
    long periodNanos = DurationArguments.positiveNanos("period", period);
    long whole = periodNanos / calls;
    long rest = periodNanos % calls;
    for (int k = 0; k < calls; k++) {
      offsets[k] = k * whole + k * rest / calls;
    }
    return new ArrivalSchedule(offsets, periodNanos);
  }

  /**
   * Returns a schedule without arrivals that lasts {@code length}: a pause to put between others.
   *
   * <pre>{@code
   * ArrivalSchedule.burst(3)
   *     .then(ArrivalSchedule.idle(Duration.ofSeconds(1)))
   *     .then(ArrivalSchedule.burst(3));   // 3 calls at 0 and 3 at 1 s
   * }</pre>
   *
   * @param length how long the pause lasts; zero or positive
   * @return the schedule
   * @throws IllegalArgumentException if {@code length} is negative or too large
   */
  public static ArrivalSchedule idle(Duration length) {
    return new ArrivalSchedule(new long[0], DurationArguments.notNegativeNanos("length", length));
  }

  /**
   * Returns arrivals at the given offsets in milliseconds; the schedule ends at the last one.
   *
   * <pre>{@code
   * ArrivalSchedule.atMillis(0, 0, 499, 500, 1500);
   * }</pre>
   *
   * @param offsetsMillis offsets from the start; not negative, never decreasing, at most {@value
   *     #MAX_ARRIVALS} of them
   * @return the schedule
   * @throws IllegalArgumentException if an offset is negative, smaller than the one before it, or
   *     too large for a {@code long} of nanoseconds
   */
  public static ArrivalSchedule atMillis(long... offsetsMillis) {
    Objects.requireNonNull(offsetsMillis, "offsetsMillis");
    long[] nanos = new long[offsetsMillis.length];
    for (int i = 0; i < nanos.length; i++) {
      if (offsetsMillis[i] > Long.MAX_VALUE / 1_000_000L) {
        throw DurationArguments.invalid("offsetsMillis[" + i + "]", offsetsMillis[i],
            "must fit in a long of nanoseconds");
      }
      nanos[i] = offsetsMillis[i] * 1_000_000L;
    }
    return ofOffsets("offsetsMillis", nanos, offsetsMillis);
  }

  /**
   * Returns arrivals at the given offsets in nanoseconds; the schedule ends at the last one.
   *
   * <pre>{@code
   * ArrivalSchedule.atNanos(0, 1, 1, 999_999_999);
   * }</pre>
   *
   * @param offsetsNanos offsets from the start; not negative, never decreasing, at most {@value
   *     #MAX_ARRIVALS} of them
   * @return the schedule
   * @throws IllegalArgumentException if an offset is negative or smaller than the one before it
   */
  public static ArrivalSchedule atNanos(long... offsetsNanos) {
    Objects.requireNonNull(offsetsNanos, "offsetsNanos");
    return ofOffsets("offsetsNanos", offsetsNanos.clone(), offsetsNanos);
  }

  /**
   * Returns this schedule followed by {@code next}, whose offsets are shifted by this schedule's
   * {@link #length()}. The result lasts as long as both together.
   *
   * <pre>{@code
   * ArrivalSchedule.atMillis(0, 300).then(ArrivalSchedule.atMillis(0, 300));  // 0, 300, 300, 600
   * }</pre>
   *
   * @param next the schedule that follows
   * @return the combined schedule
   * @throws IllegalArgumentException if the result holds too many arrivals or lasts too long
   */
  public ArrivalSchedule then(ArrivalSchedule next) {
    Objects.requireNonNull(next, "next");
    long total = lengthNanos + next.lengthNanos;
    if (total < 0) {
      throw DurationArguments.invalid("next", next, "must end within Long.MAX_VALUE nanoseconds of the start");
    }
    if ((long) offsets.length + next.offsets.length > MAX_ARRIVALS) {
      throw DurationArguments.invalid("next", next, "must keep the sum at most " + MAX_ARRIVALS + " arrivals");
    }
    long[] joined = Arrays.copyOf(offsets, offsets.length + next.offsets.length);
    for (int i = 0; i < next.offsets.length; i++) {
      joined[offsets.length + i] = lengthNanos + next.offsets[i];
    }
    return new ArrivalSchedule(joined, total);
  }

  /**
   * Repeats this schedule back to back, each copy shifted by {@link #length()}, and keeps the
   * arrivals before {@code total}; the result is {@code total} long. The last copy may be cut
   * short: {@code steady(10, 1 s).lasting(1.5 s)} has 15 arrivals.
   *
   * @param total how long the result lasts; positive
   * @return the repeated schedule
   * @throws IllegalArgumentException if {@code total} is not positive, or the result would hold
   *     more than {@value #MAX_ARRIVALS} arrivals
   * @throws IllegalStateException if this schedule's length is zero, so it cannot repeat
   */
  public ArrivalSchedule lasting(Duration total) {
    long totalNanos = DurationArguments.positiveNanos("total", total);
    if (lengthNanos == 0) {
      throw new IllegalStateException("lasting repeats a schedule of positive length, but " + this
          + " has none; give it one with bursts, steady or then(idle(..))");
    }
    long copies = (totalNanos - 1) / lengthNanos + 1;
    if (offsets.length > 0 && copies > MAX_ARRIVALS / offsets.length) {
      throw DurationArguments.invalid("total", total, "must give at most " + MAX_ARRIVALS + " arrivals");
    }
    LongStream.Builder kept = LongStream.builder();
    for (long copy = 0; copy < copies; copy++) {
      long shift = copy * lengthNanos;
      for (long offset : offsets) {
        if (offset < totalNanos - shift) {
          kept.add(shift + offset);
        }
      }
    }
    return new ArrivalSchedule(kept.build().toArray(), totalNanos);
  }

  /**
   * Returns the number of arrivals.
   *
   * @return how many calls the schedule makes
   */
  public int size() {
    return offsets.length;
  }

  /**
   * Returns how long the schedule lasts: at least until its last arrival.
   *
   * @return the length
   */
  public Duration length() {
    return Duration.ofNanos(lengthNanos);
  }

  /**
   * Returns the arrival offsets from the start, in order.
   *
   * @return an immutable list of offsets
   */
  public List<Duration> offsets() {
    return Arrays.stream(offsets).mapToObj(Duration::ofNanos).toList();
  }

  long lengthNanos() {
    return lengthNanos;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof ArrivalSchedule that
        && lengthNanos == that.lengthNanos
        && Arrays.equals(offsets, that.offsets);
  }

  @Override
  public int hashCode() {
    return 31 * Long.hashCode(lengthNanos) + Arrays.hashCode(offsets);
  }

  /**
   * Returns a summary with the first offsets in milliseconds, for example {@code
   * ArrivalSchedule[3 arrivals over 1000 ms at 0, 0, 500 ms]}.
   *
   * @return a description of this schedule
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("ArrivalSchedule[").append(offsets.length)
        .append(" arrivals over ").append(DurationArguments.millis(lengthNanos)).append(" ms");
    int shown = Math.min(offsets.length, 8);
    for (int i = 0; i < shown; i++) {
      text.append(i == 0 ? " at " : ", ").append(DurationArguments.millis(offsets[i]));
    }
    text.append(shown < offsets.length ? ", ... ms]" : shown > 0 ? " ms]" : "]");
    return text.toString();
  }

  private static ArrivalSchedule ofOffsets(String parameter, long[] nanos, long[] given) {
    if (nanos.length > MAX_ARRIVALS) {
      throw DurationArguments.invalid(parameter + ".length", nanos.length, "must be at most " + MAX_ARRIVALS);
    }
    for (int i = 0; i < nanos.length; i++) {
      if (nanos[i] < 0) {
        throw DurationArguments.invalid(parameter + "[" + i + "]", given[i], "must not be negative");
      }
      if (i > 0 && nanos[i] < nanos[i - 1]) {
        throw DurationArguments.invalid(parameter + "[" + i + "]", given[i],
            "must not be smaller than the offset before it (" + given[i - 1] + ")");
      }
    }
    return new ArrivalSchedule(nanos, nanos.length == 0 ? 0 : nanos[nanos.length - 1]);
  }

  private static int calls(int calls) {
    if (calls <= 0 || calls > MAX_ARRIVALS) {
      throw DurationArguments.invalid("calls", calls, "must be from 1 to " + MAX_ARRIVALS);
    }
    return calls;
  }
}
