package dev.guard;

import dev.guard.api.RefusedException;
import dev.guard.api.Entry;
import dev.guard.engine.GuardedResource;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A call entered on every part of a guard through the engine's {@link Entry} API, for bodies
 * that record failures themselves or whose results are judged: one entry per part, entered in
 * order and exited in reverse, each failure recorded on the entries of the parts it counts for.
 */
final class EnteredCall implements Guard.Call {

  private final Entry[] entries;
  private final ErrorTracing[] tracings;

  private EnteredCall(Entry[] entries, ErrorTracing[] tracings) {
    this.entries = entries;
    this.tracings = tracings;
  }

  /**
   * Enters every part; a refusal exits the parts already entered, in reverse, and propagates.
   *
   * @throws RefusedException if a part refused the call
   */
  static EnteredCall enter(
      GuardedResource[] resources, ErrorTracing[] tracings, @Nullable Object[] args) {
    Entry[] entries = new Entry[resources.length];
    for (int i = 0; i < resources.length; i++) {
      try {
        entries[i] = resources[i].enter(args);
      } catch (RefusedException refused) {
        for (int j = i - 1; j >= 0; j--) {
          entries[j].close();
        }
        throw refused;
      }
    }
    return new EnteredCall(entries, tracings);
  }

  @Override
  public void recordFailure(Throwable cause) {
    Objects.requireNonNull(cause, "cause");
    for (Entry entry : entries) {
      entry.recordError(cause);
    }
  }

  /** Exits after the body threw: the failure counts for the parts whose tracing says so. */
  void exitThrown(Throwable failure) {
    for (int i = entries.length - 1; i >= 0; i--) {
      if (tracings[i].isError(failure)) {
        entries[i].recordError(failure);
      }
      entries[i].close();
    }
  }

  /** Exits after the body returned: the result counts as failed for the parts that judge so. */
  void exitReturned(@Nullable Object result) {
    for (int i = entries.length - 1; i >= 0; i--) {
      if (tracings[i].isFailedResult(result)) {
        entries[i].recordError(FailedResult.INSTANCE);
      }
      entries[i].close();
    }
  }

  @Override
  public String toString() {
    return "Call" + java.util.Arrays.toString(entries);
  }
}
