package dev.guard.api;

/**
 * The time source backed by the JVM clock. This is the only class in guard that reads the system
 * clock or sleeps the calling thread.
 */
final class SystemTimeSource implements TimeSource {

  static final SystemTimeSource INSTANCE = new SystemTimeSource();

  private SystemTimeSource() {}

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public void sleep(long nanos) throws InterruptedException {
    if (nanos <= 0) {
      return;
    }
    Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
  }

  @Override
  public String toString() {
    return "TimeSource.system()";
  }
}
