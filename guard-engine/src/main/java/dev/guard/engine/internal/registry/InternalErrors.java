package dev.guard.engine.internal.registry;

import dev.guard.api.rule.InvalidRulesException;
import dev.guard.spi.EngineListener;
import java.util.List;

/**
 * Where the engine reports its own failures: a protection that threw while deciding a call, while
 * seeing it end, or while its rules were compiled. The policy (docs/BEHAVIOUR.md, "When guard
 * itself fails") is fail-open: such a failure is never turned into the caller's exception; the call
 * goes ahead and {@link EngineListener#onInternalError} hears of it. A listener that throws is
 * ignored.
 */
public final class InternalErrors {

  private final Listeners listeners;

  public InternalErrors(Listeners listeners) {
    this.listeners = listeners;
  }

  /** Tells every listener; never throws. */
  public void report(String resource, Throwable error) {
    listeners.tell(EngineListener::onInternalError, resource, error);
  }

  /**
   * Reports a failure to compile a resource's rules that is not a refusal of the rules
   * themselves, and returns the error that refuses the rule change in its place.
   */
  public InvalidRulesException.Error uncompilable(String resource, RuntimeException failure) {
    report(resource, failure);
    return new InvalidRulesException.Error(resource, "its rules could not be compiled (an internal error of guard,"
        + " reported to EngineListener.onInternalError): " + failure);
  }
}
