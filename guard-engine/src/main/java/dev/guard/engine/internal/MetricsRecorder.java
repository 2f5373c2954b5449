package dev.guard.engine.internal;

import dev.guard.api.internal.Threads;
import dev.guard.engine.internal.host.SystemTimeSource;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Records the metrics history of engines that run on real time once a second, on one daemon
 * thread for the whole JVM, so that the history, the totals and the refusal log stay complete when
 * nothing reads them (docs/BEHAVIOUR.md, "Metrics history"). Engines are held weakly: an engine
 * the application dropped is forgotten; a closed engine is removed at once ({@link #unwatch}). The
 * thread ends when no engine is left (woken at once when the last one is removed; the next engine
 * starts a new one). Each loop carries the generation it was started in, so a loop woken after a
 * newer one started ends instead of running beside it. It waits through {@link
 * SystemTimeSource#INSTANCE}, the time of the engines it records.
 */
public final class MetricsRecorder {

  private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final MetricsRecorder SHARED = new MetricsRecorder(MetricsRecorder::daemon);

  private final Consumer<Runnable> threads;
  private final List<WeakReference<EngineCore>> engines = new ArrayList<>(); // guarded by this
  private boolean running; // guarded by this
  private long generation; // guarded by this: the generation of the loop that should run
  private @Nullable Thread worker; // guarded by this: the thread of the running loop, once started

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

  /**
   * Stops recording an engine (it closed); the thread ends now if it was the last one.
   *
   * @param core the engine
   */
  public static void unwatch(EngineCore core) {
    SHARED.remove(core);
  }

  /**
   * How many engines the JVM's recorder watches (those closed or collected are not counted once
   * it noticed).
   *
   * @return the watched engines
   */
  public static int watchedEngines() {
    return SHARED.watched();
  }

  synchronized void add(EngineCore core) {
    engines.add(new WeakReference<>(core));
    if (!running) {
      running = true;
      long mine = ++generation;
      threads.accept(() -> loop(mine));
    }
  }

  synchronized void remove(EngineCore core) {
    engines.removeIf(ref -> ref.get() == core || ref.get() == null);
    if (engines.isEmpty() && running) {
      running = false;
      generation++;
      Thread thread = worker;
      worker = null;
      if (thread != null) {
        thread.interrupt(); // ends its wait at once; its generation is over, so it stops
      }
    }
  }

  private void loop(long mine) {
    synchronized (this) {
      if (mine == generation) {
        worker = Thread.currentThread();
      }
    }
    while (recordAll(mine)) {
      try {
        SystemTimeSource.INSTANCE.backgroundSleep(INTERVAL_NANOS);
      } catch (InterruptedException stop) {
        stopped(mine);
        return;
      }
    }
  }

  /** Marks the loop ended, unless a newer one runs, so that the next engine starts a new one. */
  private synchronized void stopped(long mine) {
    if (mine == generation) {
      running = false;
      generation++;
      worker = null;
    }
  }

  /**
   * Records every watched engine that is still reachable once, for the current loop.
   *
   * @return false, with the loop marked stopped, when no engine is left
   */
  boolean recordAll() {
    long current;
    synchronized (this) {
      current = generation;
    }
    return recordAll(current);
  }

  private boolean recordAll(long mine) {
    List<EngineCore> live = new ArrayList<>();
    synchronized (this) {
      if (mine != generation) {
        return false; // a newer loop runs, or the last engine was removed
      }
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
        generation++;
        worker = null;
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
    Threads.start(Threads.shared(), "guard-metrics-recorder", loop);
  }
}
