package dev.guard.api;

/**
 * Thrown when an entry is closed while entries entered after it on the same thread are still open.
 * By the time it is thrown every entry of that thread's context has been exited, so no gauge is
 * left unbalanced.
 */
public final class EntryOrderException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what was expected and what was closed
   */
  public EntryOrderException(String message) {
    super(message);
  }
}
