package dev.guard.engine.internal.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sampler runs off the call path, only while somebody reads: readers get the published sample
 * (or "unknown" while none is recent) and the thread ends after an interval without readers.
 */
class HostSystemStatusTest {

  private static final long SECOND = HostSystemStatus.INTERVAL_NANOS;

  private final SteppedTime time = new SteppedTime();
  // the OS source: 2 processors, load average 3.0, no system CPU load reported
  private final FixedProbe os = new FixedProbe(3.0, 0, -1, 2);

  private HostSystemStatus status(Path root) {
    return new HostSystemStatus(root, os, time, SECOND);
  }

  @Test
  void nothingRuns_untilSomebodyReads(@TempDir Path root) {
    HostSystemStatus status = status(root);

    assertThat(status.sampler()).isNull();
  }

  @Test
  void firstRead_isUnknown_andStartsTheSampler(@TempDir Path root) throws Exception {
    HostSystemStatus status = status(root);

    assertThat(status.cpuUsage()).isNegative();
    assertThat(status.sampler()).isNotNull();
    assertThat(time.awaitSleeper()).isEqualTo(SECOND);
    assertThat(status.systemLoad()).isEqualTo(1.5); // 3.0 over 2 usable CPUs
    assertThat(status.cpuUsage()).isNegative();     // one reading: no interval to measure yet

    os.processCpuNanos.addAndGet(SECOND);           // one CPU-second over one second on 2 CPUs
    time.wakeOne();
    time.awaitSleeper();

    assertThat(status.cpuUsage()).isEqualTo(0.5);
    stopSampler(status);
  }

  @Test
  void sampler_endsAfterSamplesNobodyRead_andARead_startsItAgain(@TempDir Path root)
      throws Exception {
    HostSystemStatus status = status(root);
    status.cpuUsage();
    time.awaitSleeper();
    Thread first = status.sampler();

    for (int i = 1; i < HostSystemStatus.IDLE_SAMPLES; i++) {
      time.wakeOne();
      time.awaitSleeper();
    }
    time.wakeOne(); // nobody read the last samples: the sampler ends
    first.join(10_000);
    assertThat(first.isAlive()).isFalse();

    time.advance(3 * SECOND); // the last sample is stale now
    assertThat(status.systemLoad()).isNegative();
    assertThat(status.sampler()).isNotSameAs(first);
    time.awaitSleeper();
    assertThat(status.systemLoad()).isEqualTo(1.5);
    stopSampler(status);
  }

  @Test
  void source_describesWhatIsRead(@TempDir Path root) {
    assertThat(status(root).source()).startsWith("operating system");
    assertThat(new HostSystemStatus(root, FixedProbe.silent(), time, SECOND).source())
        .startsWith("none");
  }

  @Test
  void host_reportsASource() {
    assertThat(HostSystemStatus.shared().source()).isNotBlank();
  }

  /** Lets the sampler publish samples nobody reads until it ends, and waits for it. */
  private void stopSampler(HostSystemStatus status) throws InterruptedException {
    for (int i = 0; i < HostSystemStatus.IDLE_SAMPLES; i++) {
      time.wakeOne();
      time.awaitSleeper();
    }
    time.wakeOne();
    Thread sampler = status.sampler();
    sampler.join(10_000);
    assertThat(sampler.isAlive()).isFalse();
  }
}
