package dev.guard.engine.internal;

import dev.guard.engine.Cap;
import dev.guard.spi.EngineListener;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/** Counts cap overflows and tells the listeners; the one place overflow policy is reported. */
final class Overflows {

  private final LongAdder[] counts = new LongAdder[Cap.values().length];
  private final List<EngineListener> listeners;

  Overflows(List<EngineListener> listeners) {
    this.listeners = listeners;
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new LongAdder();
    }
  }

  void report(Cap cap, String name) {
    counts[cap.ordinal()].increment();
    for (EngineListener listener : listeners) {
      try {
        listener.onCapExceeded(cap, name);
      } catch (RuntimeException ignored) {
        // listeners must not break the call path
      }
    }
  }

  /** Reports {@code times} overflows of one cap at once (for example values forgotten together). */
  void report(Cap cap, String name, long times) {
    if (times <= 0) {
      return;
    }
    counts[cap.ordinal()].add(times);
    for (EngineListener listener : listeners) {
      for (long i = 0; i < times; i++) {
        try {
          listener.onCapExceeded(cap, name);
        } catch (RuntimeException ignored) {
          // listeners must not break the call path
        }
      }
    }
  }

  long count(Cap cap) {
    return counts[cap.ordinal()].sum();
  }
}
