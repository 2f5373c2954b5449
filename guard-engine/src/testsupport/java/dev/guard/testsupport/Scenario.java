package dev.guard.testsupport;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.spi.TimeSource;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Shared set-up of the acceptance scenarios (docs/BEHAVIOUR.md): a fresh engine on a manual clock,
 * moved to T0 = 60 000 ms, a multiple of every window length. Sleeps are recorded, not
 * performed, so simultaneous requests are all decided at the same clock value.
 */
public final class Scenario {

  public static final long T0 = 60_000;

  public final ManualClock clock = new ManualClock();
  public final List<Long> sleeps = new ArrayList<>();
  public final GuardEngine engine;

  public Scenario() {
    this(GuardEngine.builder());
  }

  public Scenario(GuardEngine.Builder builder) {
    TimeSource decidingClock =
        new TimeSource() {
          @Override
          public long nanoTime() {
            return clock.nanoTime();
          }

          @Override
          public void sleep(long nanos) {
            sleeps.add(nanos);
          }
        };
    engine = builder.clock(decidingClock).build();
    clock.advanceMillis(T0);
  }

  /** Moves the clock to T0 + offset (forward only). */
  public Scenario at(long offsetMs) {
    long target = T0 + offsetMs;
    long now = clock.nanoTime() / 1_000_000;
    clock.advance(Duration.ofMillis(target - now));
    return this;
  }

  /** Enters and immediately exits; "P" when admitted, "B" when refused. */
  public String call(String resource) {
    return call(resource, EntryType.IN);
  }

  public String call(String resource, EntryType type) {
    try (Entry ignored = engine.resource(resource).entryType(type).enter()) {
      return "P";
    } catch (RefusedException refused) {
      return "B";
    }
  }

  /**
   * Enters, lets {@code rtMs} pass on the clock, records an error if {@code fails}, and exits;
   * "P" when admitted, "B" when refused (no time passes then).
   */
  public String call(String resource, long rtMs, boolean fails) {
    Entry entry;
    try {
      entry = engine.resource(resource).entryType(EntryType.IN).enter();
    } catch (RefusedException refused) {
      return "B";
    }
    clock.advanceMillis(rtMs);
    if (fails) {
      entry.recordError(new IllegalStateException("failed"));
    }
    entry.close();
    return "P";
  }

  /** n calls at the current instant, e.g. "PPPPPB". */
  public String calls(String resource, int n) {
    StringBuilder results = new StringBuilder();
    for (int i = 0; i < n; i++) {
      results.append(call(resource));
    }
    return results.toString();
  }
}
