package dev.guard.api.internal;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where guard's background threads come from: a thread factory the application gives (an
 * engine's, or an add-on's own), or guard's default of platform daemon threads. Every thread guard
 * starts is named for its role and is a daemon, whatever factory made it.
 *
 * <p>The loops one process shares between its engines (the coarse clock's ticker, the metrics
 * recorder, the host status sampler, the call deadlines) take the factory of the first engine
 * built with one of its own, or guard's default when none was.
 */
public final class Threads {

  private static final ThreadFactory DAEMONS = Thread::new;

  private static volatile ThreadFactory shared = DAEMONS;

  private Threads() {}

  /**
   * Guard's default: platform threads.
   *
   * @return the default factory
   */
  public static ThreadFactory daemons() {
    return DAEMONS;
  }

  /**
   * The factory of the loops the process shares.
   *
   * @return the first factory {@link #offerShared offered}, or the default
   */
  public static ThreadFactory shared() {
    return shared;
  }

  /**
   * Offers a factory for the shared loops; the first offer is kept.
   *
   * @param factory an application's factory
   */
  public static synchronized void offerShared(ThreadFactory factory) {
    Objects.requireNonNull(factory, "threads");
    if (shared == DAEMONS) {
      shared = factory;
    }
  }

  /**
   * Makes a thread with the factory, names it, makes it a daemon, and returns it unstarted.
   *
   * @param factory where the thread comes from
   * @param name the thread's name (its role)
   * @param task what it runs
   * @return the thread
   * @throws IllegalStateException if the factory made no thread
   */
  public static Thread make(ThreadFactory factory, String name, Runnable task) {
    Thread thread = factory.newThread(task);
    if (thread == null) {
      throw new IllegalStateException("the thread factory " + factory
          + " made no thread for " + name);
    }
    thread.setName(name);
    if (!thread.isDaemon()) {
      thread.setDaemon(true);
    }
    return thread;
  }

  /**
   * Makes, names and starts a daemon thread.
   *
   * @param factory where the thread comes from
   * @param name the thread's name (its role)
   * @param task what it runs
   * @return the started thread
   */
  public static Thread start(ThreadFactory factory, String name, Runnable task) {
    Thread thread = make(factory, name, task);
    thread.start();
    return thread;
  }

  /**
   * A factory that names its threads {@code prefix + n} through {@link #make}, for pools.
   *
   * @param factory where the threads come from
   * @param prefix the name's start
   * @return the naming factory
   */
  public static ThreadFactory named(ThreadFactory factory, String prefix) {
    AtomicInteger count = new AtomicInteger();
    return task -> make(factory, prefix + count.incrementAndGet(), task);
  }
}
