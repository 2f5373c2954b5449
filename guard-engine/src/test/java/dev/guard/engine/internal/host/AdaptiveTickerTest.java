package dev.guard.engine.internal.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Drives the ticker's loop by hand: no thread runs, so every step is deterministic. */
class AdaptiveTickerTest {

  private final AtomicLong clock = new AtomicLong(100);
  private final List<Runnable> started = new ArrayList<>();
  private final AdaptiveTicker ticker =
      new AdaptiveTicker(clock::get, nanos -> {}, started::add, 1_000_000L, 10);

  @Test
  void read_firstTime_startsOneTickerWithAFreshValue() {
    clock.set(250);

    assertThat(ticker.read()).isEqualTo(250);
    ticker.read();

    assertThat(started).hasSize(1);
    assertThat(ticker.running()).isTrue();
  }

  @Test
  void tick_refreshesTheCachedValue() {
    ticker.read();
    clock.set(900);

    ticker.tick();

    assertThat(ticker.read()).isEqualTo(900);
  }

  @Test
  void tick_keepsRunningWhileReadsComeWithinEachCheckPeriod() {
    ticker.read();
    for (int period = 0; period < 5; period++) {
      for (int i = 0; i < 10; i++) {
        assertThat(ticker.tick()).isTrue();
      }
      ticker.read();
    }
    assertThat(ticker.running()).isTrue();
    assertThat(started).hasSize(1);
  }

  @Test
  void tick_stopsAfterAWholeCheckPeriodWithoutReads() {
    ticker.read();
    for (int i = 0; i < 10; i++) {
      ticker.tick(); // the first check clears the first read's demand
    }
    boolean last = true;
    for (int i = 0; i < 10; i++) {
      last = ticker.tick();
    }

    assertThat(last).isFalse();
    assertThat(ticker.running()).isFalse();
  }

  @Test
  void read_afterStop_startsANewTickerAndReadsTheClockAgain() {
    ticker.read();
    while (ticker.tick()) {
      // run the idle ticker down
    }
    clock.set(5_000);

    assertThat(ticker.read()).isEqualTo(5_000);
    assertThat(started).hasSize(2);
  }
}
