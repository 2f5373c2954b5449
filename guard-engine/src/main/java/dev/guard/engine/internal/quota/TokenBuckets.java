package dev.guard.engine.internal.quota;

/**
 * The arithmetic of one token bucket, on its state packed in one word: {@code lastRefill}
 * (engine milliseconds, 40 bits, 34 years) above the tokens (24 bits). {@code T} is the rate
 * (tokens per period), {@code D} the period in milliseconds, {@code max} the bucket's size, {@code
 * n} the call's permits.
 *
 * <ul>
 *   <li>{@code T == 0} or {@code n > max}: refused.
 *   <li>A new bucket is full ({@code max} tokens) and refilled now.
 *   <li>{@code elapsed = now − lastRefill}. If {@code elapsed > D} (strictly: at exactly {@code D}
 *       a call is still refused), the bucket first earns {@code ⌊elapsed · T / D⌋} tokens, capped
 *       at {@code max}, and {@code lastRefill} becomes {@code now}; otherwise nothing is earned
 *       and {@code lastRefill} stays. The call passes when the bucket then holds at least {@code n}
 *       tokens and takes them.
 * </ul>
 *
 * <p>A quota is such a bucket with {@code max = T}: after {@code D} it is full again, so it counts
 * in fixed windows of {@code D}, each starting at a refill. The refill is computed as {@code
 * (elapsed / D) · T + (elapsed mod D) · T / D}, saturating at {@code max} once {@code elapsed / D}
 * exceeds {@code max / T}: with {@code D <= 1 day} and {@code T < 2^24} no product exceeds 2^51,
 * so any idle time, however long, is exact in 64-bit arithmetic. The token service's backends
 * (the in-memory service, the Redis script) compute the same.
 */
public final class TokenBuckets {

  /** The bits of the token count. */
  public static final int TOKEN_BITS = 24;

  /** The mask of the token count. */
  public static final long TOKEN_MASK = (1L << TOKEN_BITS) - 1;

  /** {@link #next} result: the call is refused. */
  public static final long REFUSED = -1;

  private TokenBuckets() {}

  /**
   * Packs a state.
   *
   * @param refillMs the last refill, engine ms
   * @param tokens the tokens held
   * @return the state
   */
  public static long pack(long refillMs, long tokens) {
    return refillMs << TOKEN_BITS | tokens;
  }

  /**
   * The state after admitting {@code permits} at {@code nowMs}.
   *
   * @param bits the state
   * @param rate tokens earned per period; {@code > 0}
   * @param max the bucket's size; {@code >= permits}
   * @param periodMs the period
   * @param permits the call's permits
   * @param nowMs engine ms
   * @return the new state, or {@link #REFUSED}
   */
  public static long next(long bits, int rate, long max, long periodMs, int permits, long nowMs) {
    long lastRefill = bits >>> TOKEN_BITS;
    long tokens = bits & TOKEN_MASK;
    long elapsed = nowMs - lastRefill;
    if (elapsed > periodMs) {
      long earned = earned(elapsed, rate, max, periodMs);
      long left = earned + tokens > max ? max - permits : tokens + earned - permits;
      return left < 0 ? REFUSED : pack(nowMs, left);
    }
    long left = tokens - permits;
    return left < 0 ? REFUSED : pack(lastRefill, left);
  }

  /** {@code ⌊elapsed · T / D⌋}, or {@code max} once that is certainly at least {@code max}. */
  private static long earned(long elapsed, int rate, long max, long periodMs) {
    long periods = elapsed / periodMs;
    if (periods > max / rate) {
      return max;
    }
    return periods * rate + (elapsed % periodMs) * rate / periodMs;
  }

  /**
   * The state with {@code permits} tokens given back, up to {@code max}; the refill time stays.
   *
   * @param bits the state
   * @param permits the tokens given back
   * @param max the bucket's size
   * @return the new state
   */
  public static long givenBack(long bits, int permits, long max) {
    long tokens = Math.min(max, (bits & TOKEN_MASK) + permits);
    return pack(bits >>> TOKEN_BITS, tokens);
  }

  /**
   * The first time after which the next refill gives the bucket {@code n} tokens: more than
   * {@code D} after the last refill, and at least {@code ⌈(n − tokens) · D / T⌉} after it.
   *
   * @param bits the state
   * @param rate tokens earned per period; {@code > 0}
   * @param periodMs the period
   * @param permits the call's permits
   * @param nowMs engine ms
   * @return milliseconds from {@code nowMs}, at least 0
   */
  public static long retryAfterMs(long bits, int rate, long periodMs, int permits, long nowMs) {
    long missing = permits - (bits & TOKEN_MASK);
    long needMs = Math.max(periodMs + 1, (missing * periodMs + rate - 1) / rate);
    return Math.max(0, (bits >>> TOKEN_BITS) + needMs - nowMs);
  }
}
