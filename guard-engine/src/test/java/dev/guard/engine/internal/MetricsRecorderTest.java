package dev.guard.engine.internal;

import dev.guard.engine.internal.call.CallEntry;
import dev.guard.engine.internal.call.CallSite;
import dev.guard.engine.internal.registry.EngineConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.EntryType;
import dev.guard.spi.TimeSource;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The background recorder of real-time engines, driven here without its thread. */
class MetricsRecorderTest {

  private final AtomicLong nowNanos = new AtomicLong();
  private final TimeSource clock = new TimeSource() {
    @Override
    public long nanoTime() {
      return nowNanos.get();
    }

    @Override
    public void sleep(long nanos) {
      nowNanos.addAndGet(nanos);
    }
  };
  private final List<Runnable> loops = new ArrayList<>();
  private final MetricsRecorder recorder = new MetricsRecorder(loops::add);

  private EngineCore engine() {
    return new EngineCore(clock,
        new EngineConfig(WindowGeometry.SECOND_DEFAULT, 100, 100, 100, 500, false, 300, 300_000, 20,
            null, 1),
        List.of(), GuardEngine.hostStatus());
  }

  @Test
  void eachPass_recordsTheSecondsThatClosed_withoutAnyReader() {
    EngineCore core = engine();
    recorder.add(core);
    CallEntry entry = core.enter(new CallSite(core.resolve("r"), EntryType.IN, 1, false, null, ""), false, null);
    entry.close(entry.generation());
    nowNanos.addAndGet(1_500_000_000L);

    assertThat(recorder.recordAll()).isTrue();

    assertThat(core.metricsHistory().collectedThrough()).isEqualTo(0L);
  }

  @Test
  void oneLoopServesEveryEngine_andEndsWhenNoneIsLeft_theNextEngineStartsAnother() {
    recorder.add(engine());
    recorder.add(engine());
    assertThat(loops).hasSize(1);
    assertThat(recorder.watched()).isEqualTo(2);

    MetricsRecorder empty = new MetricsRecorder(loops::add);
    assertThat(empty.recordAll()).as("nothing to record: the loop ends").isFalse();
    empty.add(engine());
    assertThat(loops).hasSize(2);
  }

  @Test
  void removingTheLastEngine_endsTheRecordingThreadAtOnce() throws InterruptedException {
    List<Thread> started = new ArrayList<>();
    MetricsRecorder real = new MetricsRecorder(loop -> {
      Thread thread = new Thread(loop, "recorder-under-test");
      thread.setDaemon(true);
      started.add(thread);
      thread.start();
    });
    EngineCore first = engine();
    EngineCore second = engine();
    real.add(first);
    real.add(second);
    real.remove(first);
    assertThat(real.watched()).isEqualTo(1);
    real.remove(second);
    assertThat(real.watched()).isZero();

    assertThat(started).hasSize(1);
    started.get(0).join(TimeUnit.SECONDS.toMillis(10));
    assertThat(started.get(0).isAlive()).as("woken and ended, not parked for a second").isFalse();
  }

  @Test
  void anEngineAddedAfterTheLastWasRemoved_startsANewLoop_andTheOldOneEnds() {
    recorder.add(engine());
    EngineCore only = engine();
    MetricsRecorder fresh = new MetricsRecorder(loops::add);
    fresh.add(only);
    fresh.remove(only);
    fresh.add(engine());
    assertThat(loops).hasSize(3); // recorder's, fresh's first and fresh's second
    Runnable stale = loops.get(1);
    stale.run(); // returns at once: a newer loop runs
    assertThat(fresh.watched()).isEqualTo(1);
  }
}
