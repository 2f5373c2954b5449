package dev.guard.engine.internal.registry;

import dev.guard.spi.EngineListener;
import java.util.List;

/**
 * The engine's listeners, and the one place that calls them: each listener hears of an event in
 * turn, and one that throws neither stops the others nor reaches the code that raised the event
 * (a call, a rule change, a recording). Events are non-capturing method references such as
 * {@code EngineListener::onCapExceeded}, so telling the listeners allocates nothing.
 */
public final class Listeners {

  /**
   * An event with one value.
   *
   * @param <A> the value's type
   */
  @FunctionalInterface
  public interface Event<A> {
    /**
     * Tells one listener.
     *
     * @param listener the listener
     * @param a the value
     */
    void tell(EngineListener listener, A a);
  }

  /**
   * An event with two values.
   *
   * @param <A> the first value's type
   * @param <B> the second value's type
   */
  @FunctionalInterface
  public interface Event2<A, B> {
    /**
     * Tells one listener.
     *
     * @param listener the listener
     * @param a the first value
     * @param b the second value
     */
    void tell(EngineListener listener, A a, B b);
  }

  /**
   * An event with three values.
   *
   * @param <A> the first value's type
   * @param <B> the second value's type
   * @param <C> the third value's type
   */
  @FunctionalInterface
  public interface Event3<A, B, C> {
    /**
     * Tells one listener.
     *
     * @param listener the listener
     * @param a the first value
     * @param b the second value
     * @param c the third value
     */
    void tell(EngineListener listener, A a, B b, C c);
  }

  private final EngineListener[] all;

  /**
   * Keeps a copy of the listeners, in order.
   *
   * @param listeners the listeners
   */
  public Listeners(List<EngineListener> listeners) {
    this.all = listeners.toArray(new EngineListener[0]);
  }

  /** Whether nobody listens. */
  public boolean none() {
    return all.length == 0;
  }

  /**
   * Tells every listener of an event.
   *
   * @param event the event
   * @param a its value
   * @param <A> the value's type
   */
  public <A> void tell(Event<A> event, A a) {
    for (EngineListener listener : all) {
      try {
        event.tell(listener, a);
      } catch (RuntimeException ignored) {
        // a listener must not break what raised the event
      }
    }
  }

  /**
   * Tells every listener of an event.
   *
   * @param event the event
   * @param a its first value
   * @param b its second value
   * @param <A> the first value's type
   * @param <B> the second value's type
   */
  public <A, B> void tell(Event2<A, B> event, A a, B b) {
    for (EngineListener listener : all) {
      try {
        event.tell(listener, a, b);
      } catch (RuntimeException ignored) {
        // a listener must not break what raised the event
      }
    }
  }

  /**
   * Tells every listener of an event.
   *
   * @param event the event
   * @param a its first value
   * @param b its second value
   * @param c its third value
   * @param <A> the first value's type
   * @param <B> the second value's type
   * @param <C> the third value's type
   */
  public <A, B, C> void tell(Event3<A, B, C> event, A a, B b, C c) {
    for (EngineListener listener : all) {
      try {
        event.tell(listener, a, b, c);
      } catch (RuntimeException ignored) {
        // a listener must not break what raised the event
      }
    }
  }
}
