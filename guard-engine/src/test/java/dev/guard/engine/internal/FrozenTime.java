package dev.guard.engine.internal;

import dev.guard.spi.TimeSource;

/** A time source that stays at 0 and whose sleeps return at once: for tests that need no time. */
public final class FrozenTime {

  public static final TimeSource SOURCE = new TimeSource() {
    @Override
    public long nanoTime() {
      return 0L;
    }

    @Override
    public void sleep(long nanos) {}
  };

  private FrozenTime() {}
}
