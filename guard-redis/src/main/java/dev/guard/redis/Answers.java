package dev.guard.redis;

import dev.guard.spi.TokenService;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads the scripts' replies into {@link TokenService.Result}s.
 *
 * <p>The tokens script answers a list whose first element is the code: {@code 0} granted ({@code
 * [0, left, granted, microsLeftInBucket, countedAtMs]} for a flow token, {@code [0]} for a
 * concurrency token), {@code 1} granted in the next bucket for a prioritized request ({@code [1,
 * waitMs, countedAtMs]}), {@code 2} refused, {@code 3} over the namespace's request limit. The
 * values script answers {@code [code, number, state, lost]}: code {@code 0} with the tokens left,
 * else the wait until a retry may pass.
 *
 * <p>Invariants: a grant's id is never 0 (0 marks a grant without an id, spent from a lease), and
 * its other bits are the window time its permits were counted at, so a give-back finds their
 * bucket. A values reply is the server's, so its shape is checked: none, or one of another shape,
 * is {@code FAILED}, never an exception.
 */
final class Answers {

  private Answers() {}

  /** A granted flow token of exact mode: {@code [0, left, granted, micros, countedAtMs]}. */
  static TokenService.Result granted(List<Object> answer) {
    return TokenService.Result.granted((Long) answer.get(1), grantId((Long) answer.get(4)));
  }

  /** A prioritized flow token granted in the next bucket: {@code [1, waitMs, countedAtMs]}. */
  static TokenService.Result grantedAfter(List<Object> answer) {
    return TokenService.Result.grantedAfter(Math.max(0, (Long) answer.get(1)),
        grantId((Long) answer.get(2)));
  }

  /** A refusal's code: 3 is the namespace's request limit, any other a refusal by the rule. */
  static TokenService.Result refusal(long code) {
    return code == 3 ? TokenService.Result.TOO_MANY_REQUESTS : TokenService.Result.REFUSED;
  }

  /** The window time (ms) a grant's permits were counted at, from its id. */
  static long countedAtMs(long grantId) {
    return grantId >> 1;
  }

  /**
   * Reads the values script's answer {@code [code, number]}: OK with the tokens left when the code
   * is 0, else refused with the wait until a retry may pass. No answer, or one of another shape
   * (the reply is the server's, so it is checked), is {@code FAILED}.
   */
  static TokenService.Result values(@Nullable List<Object> answer) {
    if (answer == null || answer.size() < 2 || !(answer.get(0) instanceof Long code)
        || !(answer.get(1) instanceof Long number)) {
      return TokenService.Result.FAILED;
    }
    return code == 0 ? TokenService.Result.ok(number)
        : TokenService.Result.refused(Math.max(0, number));
  }

  /** A grant's id: the window time (ms) its permits were counted at, never 0. */
  private static long grantId(long countedAtMs) {
    return countedAtMs << 1 | 1L;
  }
}
