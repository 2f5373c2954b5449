package dev.guard.engine;

/**
 * The scope of a named context on the current thread, opened by {@link
 * GuardEngine#enterContext(String, String)} and closed with try-with-resources.
 *
 * <p>If the thread already had a context when the scope was opened, that context stays in force
 * (its name and origin win) and closing this scope does nothing. Closing a scope while entries
 * made in it are still open is ignored: the context ends when they do.
 */
public interface ContextScope extends AutoCloseable {

  /**
   * Tells whether this scope opened a new context (false when an outer context stayed in force).
   *
   * @return whether a context was opened
   */
  boolean opened();

  /** Ends the context if this scope opened it and it has no open entry. */
  @Override
  void close();
}
