package dev.guard.examples;

import dev.guard.Guard;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One guarded endpoint of the simulated service and the traffic aimed at it: every {@code period},
 * {@code burst} calls arrive at once, and each admitted call keeps its caller busy for {@code
 * work}. An endpoint with {@code callers} is called on behalf of users, taken in turn from that
 * list (a user listed six times sends six of its calls), and its guard sees the user as the
 * call's argument. The endpoint's dependency may be down for a while: admitted calls that end in
 * {@code [failsFrom, failsFrom + failsFor)} of the run fail.
 *
 * @param name the resource name, also used as the column title
 * @param rule how the guard is declared, as shown to the reader
 * @param guard the guard bound to the demo's engine
 * @param period the time between two arrivals (or bursts); positive
 * @param burst the calls arriving together each period; positive
 * @param work how long an admitted call takes; zero for instant calls
 * @param watch what the reader should look for in the figures
 * @param callers the users calling in turn; empty when calls are anonymous
 * @param failsFrom when the dependency goes down, from the start of the run
 * @param failsFor how long it stays down; zero for a dependency that never fails
 */
record Endpoint(String name, String rule, Guard guard, Duration period, int burst, Duration work,
    String watch, List<String> callers, Duration failsFrom, Duration failsFor) {

  /** An endpoint whose calls are anonymous and whose dependency never fails. */
  Endpoint(String name, String rule, Guard guard, Duration period, int burst, Duration work,
      String watch) {
    this(name, rule, guard, period, burst, work, watch, List.of());
  }

  /** An endpoint whose dependency never fails. */
  Endpoint(String name, String rule, Guard guard, Duration period, int burst, Duration work,
      String watch, List<String> callers) {
    this(name, rule, guard, period, burst, work, watch, callers, Duration.ZERO, Duration.ZERO);
  }

  /** An endpoint whose calls are anonymous and whose dependency is down for a while. */
  Endpoint(String name, String rule, Guard guard, Duration period, int burst, Duration work,
      String watch, Duration failsFrom, Duration failsFor) {
    this(name, rule, guard, period, burst, work, watch, List.of(), failsFrom, failsFor);
  }

  Endpoint {
    callers = List.copyOf(callers);
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(watch, "watch");
    Objects.requireNonNull(guard, "guard");
    Objects.requireNonNull(period, "period");
    Objects.requireNonNull(work, "work");
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period must be positive, was " + period);
    }
    if (burst <= 0) {
      throw new IllegalArgumentException("burst must be > 0, was " + burst);
    }
    if (work.isNegative()) {
      throw new IllegalArgumentException("work must not be negative, was " + work);
    }
    Objects.requireNonNull(failsFrom, "failsFrom");
    Objects.requireNonNull(failsFor, "failsFor");
    if (failsFrom.isNegative() || failsFor.isNegative()) {
      throw new IllegalArgumentException("failsFrom and failsFor must not be negative, were "
          + failsFrom + " and " + failsFor);
    }
  }

  /** Whether a call ending {@code elapsedNanos} after the start of the run fails. */
  boolean failsAt(long elapsedNanos) {
    long from = failsFrom.toNanos();
    return elapsedNanos >= from && elapsedNanos - from < failsFor.toNanos();
  }

  /** Calls offered per second: {@code burst / period}. */
  double offeredPerSecond() {
    return burst * 1e9 / period.toNanos();
  }

  /** The distinct users, in order of first appearance. */
  List<String> users() {
    return callers.stream().distinct().toList();
  }

  /** The user of the {@code n}-th call (0-based). */
  String caller(long n) {
    return callers.get((int) (n % callers.size()));
  }

  /** The offered traffic in words, for headings. */
  String traffic() {
    String rate = String.format(Locale.ROOT, "%.0f calls/s", offeredPerSecond());
    String shape = burst == 1
        ? rate
        : "bursts of " + burst + " every " + period.toMillis() + " ms (" + rate + ")";
    String busy = work.isZero() ? shape : shape + ", each busy " + work.toMillis() + " ms";
    return callers.isEmpty() ? busy : busy + " from " + users().size() + " users";
  }
}
