package dev.guard.redis;

/**
 * A {@link RedisRuleSource#write} sent the rule set to Redis but got no answer (the server stopped
 * answering, or the connection was lost while it waited), so it cannot tell whether the set was
 * stored: Redis may still run the write when it answers again, and then every attached instance
 * applies the set. Distinct from {@link java.io.UncheckedIOException}, which {@code write} throws
 * only when nothing was stored.
 *
 * <p>What follows: the writer's engine keeps the new set until the source's next successful read
 * (a notice or a poll) applies what the key holds then, the same as every other instance. Writing
 * the same set again is safe: the retry compares with what the key holds at that time, and if the
 * first write was stored it simply stores the same document again.
 *
 * <pre>{@code
 * try {
 *   rules.write(update);
 * } catch (RuleWriteOutcomeUnknownException unknown) {
 *   rules.write(update);          // safe to repeat once Redis answers again
 * }
 * }</pre>
 */
public final class RuleWriteOutcomeUnknownException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what was written where, and why the outcome is unknown
   * @param cause the client's error (a timeout or a lost connection)
   */
  public RuleWriteOutcomeUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}
