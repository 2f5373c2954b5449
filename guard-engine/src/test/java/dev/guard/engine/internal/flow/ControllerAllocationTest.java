package dev.guard.engine.internal.flow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Checks that the shaping controllers decide without allocating: 200 000 decisions against a real
 * {@link StatisticNode} (each admitted call recorded as a pass at its admission time, as the
 * engine does), with time moving 1 ms per decision so that the per-second token sync, refills,
 * passes and refusals all occur in the measured phase.
 *
 * <p>Two warm-ups come first. The JIT is warmed on a throw-away controller of the same kind (JIT
 * counters belong to methods, not instances), long enough for every method on the path to reach
 * the optimizing compiler. This matters because HotSpot, when it queues a method for C2, resolves
 * the string constants of the method's class in the calling thread: the first C2 request for
 * {@link ShapingChecks#spacingNanos} allocates its class's message strings once (about 150 bytes),
 * which is not a per-decision cost. The measured controller then runs 150 s of decisions so that
 * every bucket of both windows exists.
 *
 * <p>The per-thread allocation counter of {@code com.sun.management.ThreadMXBean} is reached
 * through a method handle because the test sources are compiled into the engine module, which does
 * not read {@code java.management}. Reading it through {@code invokeExact} boxes nothing: an empty
 * measurement reads 0, so the assertion needs no slack.
 */
@Tag("process")
class ControllerAllocationTest {

  private static final long MS = 1_000_000L;
  private static final int JIT_DECISIONS = 1_000_000;
  private static final int BUCKET_DECISIONS = 150_000;
  private static final int MEASURED_DECISIONS = 200_000;

  private static MethodHandle allocationCounter() throws Throwable {
    Object bean = Class.forName("java.lang.management.ManagementFactory")
        .getMethod("getThreadMXBean").invoke(null);
    Class<?> extended = Class.forName("com.sun.management.ThreadMXBean");
    assertThat(extended.isInstance(bean)).as("per-thread allocation counter available").isTrue();
    MethodHandle counter = MethodHandles.publicLookup()
        .findVirtual(extended, "getCurrentThreadAllocatedBytes", MethodType.methodType(long.class));
    return counter.bindTo(bean);
  }

  /** Decides one call per ms from {@code fromMs}; returns the number admitted. */
  private static long drive(TrafficShapingController controller, StatisticNode node, long fromMs,
      int decisions) {
    long admitted = 0;
    for (int i = 0; i < decisions; i++) {
      long now = fromMs + i;
      long decision = controller.decide(node, 1, false, now * MS, now);
      if (Decision.admits(decision)) {
        node.addPass(now + Decision.waitNanos(decision) / MS, 1);
        admitted++;
      }
    }
    return admitted;
  }

  /** Bytes allocated over the measured decisions of a fresh controller, after both warm-ups. */
  private static long allocatedWhileDeciding(Supplier<TrafficShapingController> kind)
      throws Throwable {
    MethodHandle counter = allocationCounter();
    long start = 60_000;
    drive(kind.get(), new StatisticNode(WindowGeometry.SECOND_DEFAULT), start, JIT_DECISIONS);
    TrafficShapingController controller = kind.get();
    StatisticNode node = new StatisticNode(WindowGeometry.SECOND_DEFAULT);
    assertThat(drive(controller, node, start, BUCKET_DECISIONS)).isPositive();
    start += BUCKET_DECISIONS;
    long emptyBefore = (long) counter.invokeExact();
    long emptyAfter = (long) counter.invokeExact();
    assertThat(emptyAfter - emptyBefore).as("allocation of the measurement itself").isZero();

    // The least of three rounds: a one-off recompilation may allocate once; a per-decision
    // allocation shows in every round.
    long least = Long.MAX_VALUE;
    for (int round = 0; round < 3; round++) {
      long before = (long) counter.invokeExact();
      long admitted = drive(controller, node, start, MEASURED_DECISIONS);
      least = Math.min(least, (long) counter.invokeExact() - before);
      start += MEASURED_DECISIONS;
      assertThat(admitted).as("admitted in the measured phase").isPositive();
      assertThat(admitted).as("refused in the measured phase").isLessThan(MEASURED_DECISIONS);
    }
    return least;
  }

  @Test
  void warmUpDecide_steadyState_allocatesNothing() throws Throwable {
    // count 500 from cold: warm within the bucket phase, then 500 of every 1000 calls pass
    long allocated =
        allocatedWhileDeciding(() -> TestControllers.warmUp(500, Duration.ofSeconds(10), 3));

    assertThat(allocated).isZero();
  }

  @Test
  void warmUpDecide_sparseMode_allocatesNothing() throws Throwable {
    // count 2 < coldFactor 3: the cold rate is below one per second (sparse admissions), and the
    // long period keeps it there for the whole run
    long allocated =
        allocatedWhileDeciding(() -> TestControllers.warmUp(2, Duration.ofSeconds(20_000), 3));

    assertThat(allocated).isZero();
  }

  @Test
  void pacingDecide_steadyState_allocatesNothing() throws Throwable {
    long allocated =
        allocatedWhileDeciding(() -> TestControllers.pacing(300, Duration.ofMillis(20)));

    assertThat(allocated).isZero();
  }

  @Test
  void warmUpPacingDecide_steadyState_allocatesNothing() throws Throwable {
    long allocated = allocatedWhileDeciding(
        () -> TestControllers.warmUpPacing(300, Duration.ofSeconds(10), 3, Duration.ofMillis(20)));

    assertThat(allocated).isZero();
  }

  @Test
  void budgetedRejectDecide_allocatesOneSmallEpochPerBucketOnly() throws Throwable {
    long allocated = allocatedWhileDeciding(
        () -> TestControllers.reject(300, true));

    long buckets = MEASURED_DECISIONS / WindowGeometry.SECOND_DEFAULT.bucketLengthMs();
    assertThat(allocated).isLessThanOrEqualTo(buckets * 64);
  }
}
