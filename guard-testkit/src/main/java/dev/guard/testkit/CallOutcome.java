package dev.guard.testkit;

import java.time.Duration;
import java.util.Objects;

/**
 * What happened to one simulated call: when it was due, when the guard decided on it, whether it
 * passed, and how long the guard made it wait. All times are offsets from the start of the
 * simulation.
 *
 * <pre>{@code
 * CallOutcome third = report.outcomes().get(2);
 * third.verdict();      // PASS or REFUSE
 * third.waited();       // e.g. PT0.2S for a paced call that queued
 * third.finishedAt();   // decidedAt + waited: when the call went ahead or was refused
 * }</pre>
 *
 * @param scheduledAt when the call was due by its {@link ArrivalSchedule}
 * @param decidedAt when the call was made; later than {@code scheduledAt} only if an earlier call's
 *     wait moved the clock past the due time, so the call arrived late
 * @param verdict whether the guard admitted the call
 * @param waited how far the guard's own sleep moved the clock during the call (pacing queueing, a
 *     prioritized call borrowing a future window); zero for most calls
 */
public record CallOutcome(
    Duration scheduledAt, Duration decidedAt, Verdict verdict, Duration waited) {

  /** Whether a simulated call went ahead. */
  public enum Verdict {
    /** The guard admitted the call and its body ran. */
    PASS,
    /** The guard refused the call with a {@code RefusedException}; its body did not run. */
    REFUSE
  }

  /**
   * Validates the fields.
   *
   * @param scheduledAt when the call was due; not negative
   * @param decidedAt when the call was made; not before {@code scheduledAt}
   * @param verdict whether the guard admitted the call
   * @param waited how long the call waited; not negative
   * @throws NullPointerException if a field is null
   * @throws IllegalArgumentException if a duration is negative or {@code decidedAt} lies before
   *     {@code scheduledAt}
   */
  public CallOutcome {
    Checks.notNegativeNanos("scheduledAt", scheduledAt);
    Checks.notNegativeNanos("decidedAt", decidedAt);
    Objects.requireNonNull(verdict, "verdict");
    Checks.notNegativeNanos("waited", waited);
    if (decidedAt.compareTo(scheduledAt) < 0) {
      throw Checks.invalid("decidedAt", decidedAt, "must not be before scheduledAt " + scheduledAt);
    }
  }

  /**
   * Tells whether the guard admitted the call.
   *
   * @return {@code true} for {@link Verdict#PASS}
   */
  public boolean passed() {
    return verdict == Verdict.PASS;
  }

  /**
   * Returns when the call went ahead or was refused: {@code decidedAt + waited}. A simulation
   * report counts the call in the window holding this instant.
   *
   * @return the offset at which the call finished waiting
   */
  public Duration finishedAt() {
    return decidedAt.plus(waited);
  }
}
