package dev.guard;

/**
 * One admitted call of a guard's code, handed to the body of {@link Guard#decorateWithCall} so
 * that code which does not throw can still tell statistics and circuit breakers that it failed.
 *
 * <pre>{@code
 * Supplier<Quote> quote = Guard.of("pricing").errorRatio(0.5)
 *     .decorateWithCall(call -> {
 *       Quote answer = pricing.quoteOrNull(item);
 *       if (answer == null) {
 *         call.recordFailure(new IllegalStateException("no quote for " + item));
 *         return Quote.unavailable();
 *       }
 *       return answer;
 *     });
 * }</pre>
 *
 * <p>The call is valid while the body runs; recording on it afterwards does nothing. It is meant
 * for the thread running the body.
 */
public sealed interface Call permits EnteredCall {

  /**
   * Counts this call as failed, on every resource of the guard, for statistics and for circuit
   * breakers ({@code errorRatio}, {@code errorCount}), exactly as if the body had thrown {@code
   * cause}; the body goes on, and what it returns is returned to the caller. The guard's exception
   * filters ({@code recordExceptions}, {@code ignoreExceptions}, {@code recordExceptionsIf}) do
   * not apply: recording is explicit. When several failures are recorded, the last counts (a call
   * fails once). A {@link dev.guard.api.RefusedException} is not a failure and is ignored.
   *
   * @param cause what went wrong
   * @throws NullPointerException if {@code cause} is null
   */
  void recordFailure(Throwable cause);
}
