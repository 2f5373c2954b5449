package dev.guard.api;

/**
 * One admitted call to a protected resource, from {@code GuardedResource.enter} until {@link
 * #close()}.
 *
 * <p>Use it with try-with-resources so the call is always exited, and report a business failure
 * with {@link #recordError(Throwable)} so statistics and circuit breakers see it:
 *
 * <pre>{@code
 * try (Entry entry = engine.resource("createOrder").enter()) {
 *   try {
 *     return orders.create(request);
 *   } catch (RuntimeException e) {
 *     entry.recordError(e);
 *     throw e;
 *   }
 * }
 * }</pre>
 *
 * <p>Entries of one thread nest: close them in reverse order of entering. Closing out of order
 * exits every entry still open above the closed one and throws {@link IllegalStateException}; the
 * statistics stay consistent either way. Closing twice is harmless. An entry may be closed on
 * another thread than the one that entered it; its statistics are recorded exactly once.
 */
public interface Entry extends AutoCloseable {

  /**
   * Returns the name of the entered resource.
   *
   * @return the resource name
   */
  String resource();

  /**
   * Returns the direction of this call.
   *
   * @return the entry type
   */
  EntryType type();

  /**
   * Attaches a business error to this call so that exit statistics count it as an exception. The
   * last error recorded before {@link #close()} wins; {@code null} and refused exceptions are
   * ignored. Recording after close does nothing.
   *
   * @param error the error the protected code raised
   */
  void recordError(Throwable error);

  /**
   * Exits the call: records its response time and outcome and releases its concurrency slot.
   * Closing an entry again does nothing.
   *
   * @throws IllegalStateException if entries above this one on the same thread are still open; they
   *     have all been exited when this is thrown
   */
  @Override
  void close();
}
