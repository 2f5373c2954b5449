package dev.guard.concurrency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 100,000 virtual threads through pacing, a concurrency limit and a circuit breaker on one engine,
 * with JFR recording every {@code jdk.VirtualThreadPinned} event (threshold 0): no virtual thread
 * parks while pinned to its carrier, and every call is counted exactly once. A first, unrecorded
 * run of 5,000 threads loads the classes: the JDK's class loading holds a monitor in code a
 * virtual thread cannot unmount from, so threads that race to load the same class pin briefly
 * (JDK 25 shows it as a contended monitor enter in {@code BuiltinClassLoader}); that is the JVM's
 * first use, not a wait of the engine. Compiled and run on
 * JDK 21+ only (guard-dsl's profile {@code virtual-threads}; {@code .ci/run} runs it on JDK 25).
 *
 * <p>Paced calls wait on a parking manual clock; a platform thread moves it 1 ms at a time while
 * calls wait (pausing a millisecond of real time between steps, so engine time stays well inside
 * the minute window that the totals are read from). The canary test shows that the recording does
 * see a pinned wait on the running JDK, so an empty recording is evidence, not an accident.
 */
class VirtualThreadsTest {

  private static final int THREADS = 100_000;
  private static final int WARM_UP_THREADS = 5_000;
  private static final Duration PATIENCE = Duration.ofSeconds(45);
  private static final String PINNED = "jdk.VirtualThreadPinned";

  /** The canary's clock: a class initializer parks on it, which pins on every JDK. */
  private static final ManualClock CANARY_CLOCK = ManualClock.parking();

  @TempDir Path dir;

  private final ManualClock clock = ManualClock.parking();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();
  private final AtomicReference<Throwable> unexpected = new AtomicReference<>();

  /** How one resource's calls ended, as the callers saw it. */
  private static final class Tally {
    final LongAdder passed = new LongAdder();
    final LongAdder refused = new LongAdder();
    final LongAdder failed = new LongAdder();
  }

  @Test
  void hundredThousandVirtualThreads_neverPin_andEveryCallIsCountedOnce() throws Exception {
    Workload work = new Workload();
    work.run(WARM_UP_THREADS); // first use loads the classes: class loading may pin, the engine not

    List<RecordedEvent> pinned = recordPinned("engine", () -> work.run(THREADS));

    assertThat(unexpected.get()).isNull();
    assertThat(pinned).as("virtual threads parked while pinned").isEmpty();
    int calls = WARM_UP_THREADS + THREADS;
    assertCounted("paced", work.paced, calls);
    assertCounted("limited", work.limited, calls);
    assertCounted("flaky", work.flaky, calls);
    assertThat(work.paced.refused.sum()).as("the queue filled up").isPositive();
    assertThat(work.limited.refused.sum()).as("calls overlapped past the limit").isPositive();
    assertThat(work.flaky.refused.sum()).as("the breaker opened").isPositive();
    assertThat(engine.inboundStats().concurrency()).isZero();
  }

  /** Each thread calls a paced guard, a concurrency-limited one and one behind a breaker. */
  private final class Workload {
    final Guard pacedGuard = Guard.of("paced").qps(1000).pacing(Duration.ofMillis(20)).on(engine);
    final Guard limitedGuard = Guard.of("limited").concurrency(4).on(engine);
    final Guard flakyGuard =
        Guard.of("flaky").errorRatio(0.3).openFor(Duration.ofMillis(50)).on(engine);
    final Tally paced = new Tally();
    final Tally limited = new Tally();
    final Tally flaky = new Tally();

    void run(int threads) throws InterruptedException {
      CountDownLatch done = new CountDownLatch(threads);
      Thread driver = drive(done);
      for (int i = 0; i < threads; i++) {
        boolean fails = (i / 500) % 3 == 0; // bursts of failures open the breaker now and then
        Thread.ofVirtual().start(() -> {
          try {
            call(pacedGuard, paced, () -> {});
            call(limitedGuard, limited, Thread::yield); // unmounts: other calls overlap this one
            call(flakyGuard, flaky, () -> {
              if (fails) {
                throw new IllegalStateException("failed");
              }
            });
          } catch (Throwable t) {
            unexpected.compareAndSet(null, t);
          } finally {
            done.countDown();
          }
        });
      }
      assertThat(done.await(PATIENCE.toNanos(), TimeUnit.NANOSECONDS)).as("all calls ended").isTrue();
      driver.interrupt();
      driver.join(PATIENCE.toMillis());
    }
  }

  @Test
  void recording_seesAVirtualThreadThatParksWhilePinned() throws Exception {
    List<RecordedEvent> pinned = recordPinned("canary", () -> {
      Thread canary = Thread.ofVirtual().name("canary").start(ParksWhileInitialized::touch);
      assertThat(CANARY_CLOCK.awaitSleepers(1, PATIENCE)).as("the canary parked").isTrue();
      CANARY_CLOCK.advanceNanos(1);
      assertThat(canary.join(PATIENCE)).as("the canary ended").isTrue();
    });

    assertThat(pinned).extracting(event -> event.getThread().getJavaName()).contains("canary");
  }

  /** Parks in its class initializer, where a virtual thread cannot unmount. */
  private static final class ParksWhileInitialized {
    static {
      try {
        CANARY_CLOCK.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    static void touch() {}
  }

  private interface Run {
    void run() throws Exception;
  }

  /** Runs {@code body} under a JFR recording and returns the pinned waits it saw. */
  private List<RecordedEvent> recordPinned(String name, Run body) throws Exception {
    Path file = dir.resolve(name + ".jfr");
    try (Recording recording = new Recording()) {
      recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
      recording.start();
      body.run();
      recording.stop();
      recording.dump(file);
    }
    return RecordingFile.readAllEvents(file).stream()
        .filter(event -> event.getEventType().getName().equals(PINNED))
        .toList();
  }

  /** Moves the clock 1 ms at a time while calls wait on it, until every call ended. */
  private Thread drive(CountDownLatch done) {
    return Thread.ofPlatform().daemon().name("clock-driver").start(() -> {
      try {
        while (!done.await(1, TimeUnit.MILLISECONDS)) {
          if (clock.sleepers() > 0) {
            clock.advanceMillis(1);
          }
        }
      } catch (InterruptedException stop) {
        // the test is over
      }
    });
  }

  private static void call(Guard guard, Tally tally, Runnable body) {
    try {
      guard.run(body);
      tally.passed.increment();
    } catch (RefusedException refused) {
      tally.refused.increment();
    } catch (IllegalStateException failed) {
      tally.passed.increment();
      tally.failed.increment();
    }
  }

  private void assertCounted(String resource, Tally tally, long calls) {
    NodeStats stats = engine.stats(resource);
    assertThat(tally.passed.sum() + tally.refused.sum()).as(resource + ": calls")
        .isEqualTo(calls);
    assertThat(stats.totalPass()).as(resource + ": passes").isEqualTo(tally.passed.sum());
    assertThat(stats.totalRefused()).as(resource + ": refusals").isEqualTo(tally.refused.sum());
    assertThat(stats.totalException()).as(resource + ": errors").isEqualTo(tally.failed.sum());
    assertThat(stats.concurrency()).as(resource + ": calls running").isZero();
  }
}
