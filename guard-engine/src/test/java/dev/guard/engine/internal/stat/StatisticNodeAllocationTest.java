package dev.guard.engine.internal.stat;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Checks that the pass path allocates nothing once every slot holds a bucket.
 *
 * <p>The per-thread allocation counter of {@code com.sun.management.ThreadMXBean} is reached by
 * reflection because the test sources are compiled into the engine module, which does not read
 * {@code java.management}.
 */
@Tag("process")
class StatisticNodeAllocationTest {

  private static final long T0 = 60_000L;
  private static final int CALLS = 200_000;

  /** Far below one small object (16 bytes) per call. */
  private static final long TOLERANCE_BYTES = 64 * 1024;

  private static long allocatedBytes(Object threadBean, Method counter) throws Exception {
    return (Long) counter.invoke(threadBean);
  }

  private static double drive(StatisticNode node, long fromMs, int calls) {
    double sink = 0;
    for (int i = 0; i < calls; i++) {
      long now = fromMs + i; // one call per ms: every bucket of both rings gets reset in place
      node.increaseThreads();
      node.addPass(now, 1);
      sink += node.passQps(now);
      node.addRtAndSuccess(now, 3, 1);
      node.decreaseThreads();
    }
    return sink;
  }

  @Test
  void passPath_steadyState_allocatesNothing() throws Exception {
    Object threadBean =
        Class.forName("java.lang.management.ManagementFactory")
            .getMethod("getThreadMXBean")
            .invoke(null);
    Class<?> extended = Class.forName("com.sun.management.ThreadMXBean");
    assertThat(extended.isInstance(threadBean)).as("per-thread allocation counter available").isTrue();
    Method counter = extended.getMethod("getCurrentThreadAllocatedBytes");
    StatisticNode node = new StatisticNode(WindowGeometry.SECOND_DEFAULT);
    drive(node, T0, 120_000); // creates all slots and warms up the JIT
    allocatedBytes(threadBean, counter);

    long before = allocatedBytes(threadBean, counter);
    double sink = drive(node, T0 + 120_000, CALLS);
    long allocated = allocatedBytes(threadBean, counter) - before;

    assertThat(sink).isPositive();
    assertThat(allocated).isLessThan(TOLERANCE_BYTES);
  }
}
