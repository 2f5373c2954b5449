package dev.guard.engine.internal;

import dev.guard.api.TimeSource;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Records the metrics history of engines that run on real time once a second, on one daemon
 * thread for the whole JVM, so that the history, the totals and the block log stay complete when
 * nothing reads them (docs/BEHAVIOUR.md, "Metrics history"). Engines are held weakly: an engine
 * the application dropped is forgotten, and the thread ends when no engine is left (the next
 * engine starts a new one) or when it is interrupted. It waits through {@link TimeSource#system()},
 * the time of the engines it records.
 */
public final class MetricsRecorder {

  private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final MetricsRecorder SHARED = new MetricsRecorder(MetricsRecorder::daemon);

  private final Consumer<Runnable> threads;
  private final List<WeakReference<EngineCore>> engines = new ArrayList<>(); // guarded by this
  private boolean running; // guarded by this

  /**
   * Creates a recorder.
   *
   * @param threads starts the recording loop on a new thread
   */
  MetricsRecorder(Consumer<Runnable> threads) {
    this.threads = threads;
  }

  /**
   * Records an engine's history once a second from now on, until the engine is unreachable.
   *
   * @param core the engine
   */
  public static void watch(EngineCore core) {
    SHARED.add(core);
  }

  synchronized void add(EngineCore core) {
    engines.add(new WeakReference<>(core));
    if (!running) {
      running = true;
      threads.accept(this::loop);
    }
  }

  private void loop() {
    while (recordAll()) {
      try {
        TimeSource.system().backgroundSleep(INTERVAL_NANOS);
      } catch (InterruptedException stop) {
        stopped();
        return;
      }
    }
  }

  /** Marks the loop ended, so that the next engine watched starts a new one. */
  private synchronized void stopped() {
    running = false;
  }

  /**
   * Records every watched engine that is still reachable once.
   *
   * @return false, with the loop marked stopped, when no engine is left
   */
  boolean recordAll() {
    List<EngineCore> live = new ArrayList<>();
    synchronized (this) {
      for (Iterator<WeakReference<EngineCore>> it = engines.iterator(); it.hasNext(); ) {
        EngineCore core = it.next().get();
        if (core == null) {
          it.remove();
        } else {
          live.add(core);
        }
      }
      if (live.isEmpty()) {
        running = false;
        return false;
      }
    }
    for (EngineCore core : live) {
      try {
        core.collectHistory();
      } catch (RuntimeException unexpected) {
        // one engine's failure must not stop the others' recording; the next pass tries again
      }
    }
    return true;
  }

  /** How many engines are watched (tests). */
  synchronized int watched() {
    return engines.size();
  }

  private static void daemon(Runnable loop) {
    Thread thread = new Thread(loop, "guard-metrics-recorder");
    thread.setDaemon(true);
    thread.start();
  }
}
