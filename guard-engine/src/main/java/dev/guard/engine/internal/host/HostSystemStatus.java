package dev.guard.engine.internal.host;

import dev.guard.api.internal.Threads;
import dev.guard.spi.SystemStatus;
import dev.guard.spi.TimeSource;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The machine's CPU usage and load, sampled off the call path by a daemon thread that runs only
 * while someone reads the values.
 *
 * <p>Readers get the latest {@link Sample} from a volatile field: one volatile read and a clock
 * read, nothing else on the call path. A reader that finds no sample younger than two sampling
 * intervals starts the sampler (at most one runs, guarded by a compare-and-set) and reads
 * "unknown" (-1) meanwhile. The sampler publishes a sample, waits one interval and repeats; after
 * {@value #IDLE_SAMPLES} samples in a row that nobody read it ends, so an idle engine keeps no
 * thread. Each reader marks the sample it sees as read, which writes the
 * shared field once per sample, not once per call.
 *
 * <p>CPU usage is measured between two consecutive samples of one sampler run (the first sample
 * of a run has none, unless its source reports a usage by itself); see {@link Readings}. The CPU
 * source is detected once, on first use.
 */
public final class HostSystemStatus implements SystemStatus {

  static final long INTERVAL_NANOS = 1_000_000_000L;

  /** The sampler ends after this many samples in a row that nobody read. */
  static final int IDLE_SAMPLES = 3;

  private static final class Shared {
    static final HostSystemStatus INSTANCE =
        new HostSystemStatus(Path.of("/"), OsProbe.platform(), SystemTimeSource.INSTANCE, INTERVAL_NANOS);

    private Shared() {}
  }

  /** One published sample. */
  static final class Sample {
    final double cpu;
    final double load;
    final long atNanos;
    volatile boolean read;

    Sample(double cpu, double load, long atNanos) {
      this.cpu = cpu;
      this.load = load;
      this.atNanos = atNanos;
    }
  }

  /** What a reader gets while no recent sample exists. */
  private static final Sample UNKNOWN = new Sample(-1, -1, 0);

  private final Supplier<CpuSource> detector;
  private final OsProbe os;
  private final TimeSource time;
  private final long intervalNanos;
  private final AtomicBoolean sampling = new AtomicBoolean();
  private volatile @Nullable Thread sampler;
  private volatile @Nullable CpuSource source;
  private volatile Sample sample;

  HostSystemStatus(Path root, OsProbe os, TimeSource time, long intervalNanos) {
    this(() -> CpuSources.detect(root, os), os, time, intervalNanos);
  }

  HostSystemStatus(Supplier<CpuSource> detector, OsProbe os, TimeSource time, long intervalNanos) {
    this.detector = detector;
    this.os = os;
    this.time = time;
    this.intervalNanos = intervalNanos;
    this.sample = new Sample(-1, -1, time.nanoTime() - 3 * intervalNanos);
  }

  /**
   * The status of this JVM's machine, shared by every engine.
   *
   * @return the shared instance
   */
  public static HostSystemStatus shared() {
    return Shared.INSTANCE;
  }

  @Override
  public double cpuUsage() {
    return current().cpu;
  }

  @Override
  public double systemLoad() {
    return current().load;
  }

  @Override
  public String source() {
    return cpuSource().description();
  }

  /** The sampler thread started last, if any (for tests). */
  @Nullable Thread sampler() {
    return sampler;
  }

  private Sample current() {
    Sample latest = sample;
    if (!latest.read) {
      latest.read = true;
    }
    if (time.coarseNanoTime() - latest.atNanos > 2 * intervalNanos) {
      startSampler();
      return UNKNOWN;
    }
    return latest;
  }

  private CpuSource cpuSource() {
    CpuSource detected = source;
    if (detected == null) {
      synchronized (this) {
        detected = source;
        if (detected == null) {
          detected = detector.get();
          source = detected;
        }
      }
    }
    return detected;
  }

  private void startSampler() {
    if (!sampling.compareAndSet(false, true)) {
      return;
    }
    try {
      Thread thread = Threads.make(Threads.shared(), "guard-system-status", this::sampleWhileRead);
      sampler = thread;
      thread.start();
    } catch (RuntimeException | Error failed) {
      sampling.set(false); // fail open: the values stay unknown
    }
  }

  private void sampleWhileRead() {
    try {
      CpuSource cpu = cpuSource();
      Readings.Reading previous = null;
      int unread = 0;
      while (true) {
        Readings.Reading reading = Readings.take(cpu, os, time.nanoTime());
        Sample next = new Sample(Readings.cpuUsage(previous, reading), Readings.loadPerCpu(reading),
            reading.wallNanos());
        sample = next;
        previous = reading;
        time.backgroundSleep(intervalNanos);
        unread = next.read ? 0 : unread + 1;
        if (unread >= IDLE_SAMPLES && stop(next)) {
          return;
        }
      }
    } catch (InterruptedException interrupted) {
      sampling.set(false);
    } catch (RuntimeException | Error failed) {
      sampling.set(false); // fail open: readers see the last sample go stale, then unknown
    }
  }

  /** Stops unless a reader marked the sample read meanwhile and no other sampler started. */
  private boolean stop(Sample last) {
    sampling.set(false);
    return !last.read || !sampling.compareAndSet(false, true);
  }
}
