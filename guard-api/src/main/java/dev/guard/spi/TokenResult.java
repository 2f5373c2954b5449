package dev.guard.spi;

import java.util.Objects;

/**
 * A token service's answer to one request.
 *
 * <p>The constants {@link #OK}, {@link #REFUSED}, {@link #FAILED} and {@link #TOO_MANY_REQUESTS}
 * let a service answer without allocating; {@link #ok(long)} and {@link #shouldWait(long)} carry
 * numbers.
 *
 * @param status the decision
 * @param remaining for {@link Status#OK}: how many more permits the window had left after this
 *     request (rounded down; {@code -1} when the service does not say); otherwise 0
 * @param waitMs for {@link Status#SHOULD_WAIT}: how long the caller waits before it passes;
 *     otherwise 0
 * @param tokenId for a granted concurrency token: the id that gives it back; for a granted QPS
 *     request ({@code OK}, {@code SHOULD_WAIT}): the service's own id of the grant, which {@link
 *     TokenService#giveBack} reads (0: none); otherwise 0
 */
public record TokenResult(Status status, long remaining, long waitMs, long tokenId) {

  /** What a token service decided. */
  public enum Status {
    /** Pass now. */
    OK,
    /** Pass after waiting {@link TokenResult#waitMs()}: the permits were taken from the future. */
    SHOULD_WAIT,
    /** Refuse the call: the shared threshold is reached. */
    REFUSED,
    /** The service refused to decide: its own request limit is reached (the caller falls back). */
    TOO_MANY_REQUESTS,
    /** The service could not decide: unreachable, slow, misconfigured (the caller falls back). */
    FAILED
  }

  /** Pass now, remaining unknown. */
  public static final TokenResult OK = new TokenResult(Status.OK, -1, 0, 0);

  /** Refuse the call. */
  public static final TokenResult REFUSED = new TokenResult(Status.REFUSED, 0, 0, 0);

  /** The service could not decide. */
  public static final TokenResult FAILED = new TokenResult(Status.FAILED, 0, 0, 0);

  /** The service's request limit is reached. */
  public static final TokenResult TOO_MANY_REQUESTS =
      new TokenResult(Status.TOO_MANY_REQUESTS, 0, 0, 0);

  /**
   * Validates the fields.
   *
   * @param status the decision
   * @param remaining permits left after an OK
   * @param waitMs the wait of a SHOULD_WAIT
   * @param tokenId the id of a granted concurrency token
   * @throws IllegalArgumentException if {@code waitMs} is negative, or set for another status
   */
  public TokenResult {
    Objects.requireNonNull(status, "status");
    if (waitMs < 0 || (waitMs > 0 && status != Status.SHOULD_WAIT)) {
      throw new IllegalArgumentException(
          "waitMs must be >= 0 and only set for SHOULD_WAIT, was " + waitMs + " for " + status);
    }
  }

  /**
   * Pass now, with the permits left in the window.
   *
   * @param remaining permits left after this request
   * @return the answer
   */
  public static TokenResult ok(long remaining) {
    return new TokenResult(Status.OK, remaining, 0, 0);
  }

  /**
   * Pass after a wait.
   *
   * @param waitMs how long to wait, in ms; {@code >= 0}
   * @return the answer
   */
  public static TokenResult shouldWait(long waitMs) {
    return new TokenResult(Status.SHOULD_WAIT, 0, waitMs, 0);
  }

  /**
   * A granted QPS request that the service can take back.
   *
   * @param remaining permits left after this request ({@code -1}: not said)
   * @param grantId the service's id of the grant, for {@link TokenService#giveBack}
   * @return the answer
   */
  public static TokenResult granted(long remaining, long grantId) {
    return new TokenResult(Status.OK, remaining, 0, grantId);
  }

  /**
   * A granted prioritized request that passes after a wait and that the service can take back.
   *
   * @param waitMs how long to wait, in ms; {@code >= 0}
   * @param grantId the service's id of the grant, for {@link TokenService#giveBack}
   * @return the answer
   */
  public static TokenResult grantedAfter(long waitMs, long grantId) {
    return new TokenResult(Status.SHOULD_WAIT, 0, waitMs, grantId);
  }

  /**
   * A granted concurrency token.
   *
   * @param tokenId the id that gives it back
   * @return the answer
   */
  public static TokenResult token(long tokenId) {
    return new TokenResult(Status.OK, -1, 0, tokenId);
  }
}
