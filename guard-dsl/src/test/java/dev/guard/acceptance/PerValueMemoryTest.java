package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.spi.Cap;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A million distinct values through one per-value rule with the default bound: no error, every
 * forgotten value counted, and the heap the rule keeps stays small (it is printed, measured after
 * a full collection, as a rough figure).
 */
class PerValueMemoryTest {

  private static final int VALUES = 1_000_000;

  @Test
  void millionDistinctValues_stayBoundedAndAreCounted() {
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();
    Function<Long, Long> guarded = Guard.of("flood").perValue(0, 5).on(engine)
        .decorateFunction(value -> value);
    guarded.apply(-1L);
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long before = usedAfterCollection(memory);

    long sum = 0;
    for (long value = 0; value < VALUES; value++) {
      sum += guarded.apply(value);
    }

    long retained = usedAfterCollection(memory) - before;
    System.out.printf(Locale.ROOT, "per-value flood: %,d values, %,d forgotten, "
            + "heap retained %,d KiB%n", VALUES, engine.overflows(Cap.VALUES),
        retained / 1024);
    assertThat(engine.overflows(Cap.VALUES))
        .as("all but the 2,000 to 4,000 remembered values were forgotten")
        .isBetween(VALUES + 1L - 4000, VALUES + 1L - 2000);
    assertThat(retained).as("bytes retained by the rule's values").isLessThan(16L << 20);
    assertThat(sum).as("every call admitted").isEqualTo((long) VALUES * (VALUES - 1) / 2);
    assertThat(engine.stats("flood").totalPass()).isEqualTo(VALUES + 1L);
  }

  private static long usedAfterCollection(MemoryMXBean memory) {
    memory.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }
}
