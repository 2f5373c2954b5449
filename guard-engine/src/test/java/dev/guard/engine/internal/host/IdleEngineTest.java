package dev.guard.engine.internal.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.engine.GuardEngine;
import dev.guard.spi.TimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Nothing runs when nothing happens: the engine's periodic work (the metrics recorder's collection
 * once a second, a reader polling statistics) must not keep the coarse clock's ticker awake. Both
 * schedules are driven by hand on one simulated millisecond clock, as the system time source runs
 * them (a 1 ms tick that stops after 1,000 ticks without a coarse read), so no thread runs.
 */
class IdleEngineTest {

  private static final long MS = 1_000_000L;

  private final AtomicLong nanos = new AtomicLong(5_000 * MS);
  private final List<Runnable> tickersStarted = new ArrayList<>();
  private final AdaptiveTicker ticker =
      new AdaptiveTicker(nanos::get, pause -> {}, tickersStarted::add, MS, 1000);
  private final TimeSource time = new TimeSource() {
    @Override
    public long nanoTime() {
      return nanos.get();
    }

    @Override
    public long coarseNanoTime() {
      return ticker.read();
    }

    @Override
    public void sleep(long sleepNanos) {
      nanos.addAndGet(sleepNanos);
    }
  };

  @Test
  void oneCall_thenOnlyPeriodicWork_theTickerStopsAfterOneQuietPeriodAndStaysStopped() {
    GuardEngine engine = GuardEngine.builder().clock(time).build();
    engine.resource("idle").call("request", request -> request);

    long stoppedAtMs = -1;
    for (long ms = 1; ms <= 15_000; ms++) {
      nanos.addAndGet(MS);
      if (ticker.running() && !ticker.tick()) {
        stoppedAtMs = ms;
      }
      if (ms % 1000 == 0) { // the recorder's collection, and a dashboard reading the figures
        assertThat(engine.metricsHistory("idle", 0, engine.timeMs())).isNotNull();
        assertThat(engine.stats("idle")).isNotNull();
      }
    }

    assertThat(stoppedAtMs).as("ms after the call when the ticker stopped").isBetween(1L, 2_000L);
    assertThat(ticker.running()).isFalse();
    assertThat(tickersStarted).as("tickers started").hasSize(1);
  }

  @Test
  void callsEverySecond_keepTheTickerRunning() {
    GuardEngine engine = GuardEngine.builder().clock(time).build();

    for (long ms = 1; ms <= 5_000; ms++) {
      nanos.addAndGet(MS);
      if (ticker.running()) {
        ticker.tick();
      }
      if (ms % 500 == 0) {
        engine.resource("busy").call("request", request -> request);
      }
    }

    assertThat(ticker.running()).isTrue();
    assertThat(tickersStarted).hasSize(1);
  }
}
