package dev.guard;

/**
 * What a guard records on an entry whose result its {@code failsWhen} predicate judged a failure:
 * the engine counts an entry with an error as failed. It is never thrown, so it carries no stack
 * trace, and one instance serves every call.
 */
final class FailedResult extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The one instance. */
  static final FailedResult INSTANCE = new FailedResult();

  private FailedResult() {
    super("the call's result was judged a failure by failsWhen", null, false, false);
  }
}
