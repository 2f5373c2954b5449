package dev.guard.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.EntryType;
import dev.guard.api.TimeSource;
import dev.guard.engine.SystemStatus;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.util.ArrayList;
import java.util.List;
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
        List.of(), SystemStatus.host());
  }

  @Test
  void eachPass_recordsTheSecondsThatClosed_withoutAnyReader() {
    EngineCore core = engine();
    recorder.add(core);
    CallEntry entry = core.enter(new CallSite(core.resolve("r"), EntryType.IN, 1, false, null, ""),
        false, null);
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
}
