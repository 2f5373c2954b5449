package dev.guard.benchmarks;

import java.util.function.Supplier;

/**
 * Checks that a scenario really takes the path it claims to measure: an "admits" scenario must
 * admit every call, a refusal scenario must refuse nearly every call. Benchmark states run these
 * checks in their {@code @Setup}, so a misconfigured peer fails the run instead of quietly
 * measuring the wrong path; the module's unit tests run them too.
 */
final class Sanity {
  /** How many consecutive calls a check makes. */
  static final int CALLS = 10_000;

  /** The smallest share of refused calls a refusal scenario must show. */
  static final double MIN_REFUSED_SHARE = 0.99;

  private Sanity() {}

  /**
   * Counts the refused calls among {@code calls} consecutive calls.
   *
   * @throws IllegalStateException if a call returns neither {@link Calls#ADMITTED} nor {@link
   *     Calls#REFUSED}
   */
  static int refused(Supplier<Object> call, int calls) {
    int refused = 0;
    for (int i = 0; i < calls; i++) {
      Object result = call.get();
      if (result == Calls.REFUSED) {
        refused++;
      } else if (result != Calls.ADMITTED) {
        throw new IllegalStateException("unexpected result from a guarded call: " + result);
      }
    }
    return refused;
  }

  /**
   * Requires {@link #CALLS} consecutive calls all to be admitted.
   *
   * @throws IllegalStateException naming {@code scenario} if any call was refused
   */
  static void requireAllAdmitted(String scenario, Supplier<Object> call) {
    int refused = refused(call, CALLS);
    if (refused != 0) {
      throw new IllegalStateException(
          scenario + " must admit every call, but refused " + refused + " of " + CALLS);
    }
  }

  /**
   * Requires at least {@link #MIN_REFUSED_SHARE} of {@link #CALLS} consecutive calls to be refused.
   *
   * @throws IllegalStateException naming {@code scenario} if too many calls were admitted
   */
  static void requireMostlyRefused(String scenario, Supplier<Object> call) {
    int refused = refused(call, CALLS);
    if (refused < MIN_REFUSED_SHARE * CALLS) {
      throw new IllegalStateException(
          scenario + " must refuse at least 99% of calls, but refused only " + refused + " of "
              + CALLS);
    }
  }

  /**
   * Requires a condition about a peer's configuration, for instance that a rule was accepted.
   *
   * @throws IllegalStateException with {@code message} if {@code condition} is false
   */
  static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }
}
