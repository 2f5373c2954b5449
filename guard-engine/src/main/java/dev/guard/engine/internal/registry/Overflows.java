package dev.guard.engine.internal.registry;

import dev.guard.spi.Cap;
import dev.guard.spi.EngineListener;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/** Counts cap overflows and tells the listeners; the one place overflow policy is reported. */
public final class Overflows {

  private final LongAdder[] counts = new LongAdder[Cap.values().length];
  private final Listeners listeners;

  public Overflows(Listeners listeners) {
    this.listeners = listeners;
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new LongAdder();
    }
  }

  public void report(Cap cap, String name) {
    counts[cap.ordinal()].increment();
    listeners.tell(EngineListener::onCapExceeded, cap, name);
  }

  /** Reports {@code times} overflows of one cap at once (for example values forgotten together). */
  public void report(Cap cap, String name, long times) {
    if (times <= 0) {
      return;
    }
    counts[cap.ordinal()].add(times);
    for (long i = 0; i < times; i++) {
      listeners.tell(EngineListener::onCapExceeded, cap, name);
    }
  }

  public long count(Cap cap) {
    return counts[cap.ordinal()].sum();
  }
}
