package dev.guard.concurrency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.testing.Together;
import dev.guard.testkit.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/**
 * Eight threads on one per-value rule over 1,000 values, with the clock standing still so
 * every call falls in each value's first period. Each value's state changes by compare-and-set
 * only, so accounting per value is exact: no value is admitted beyond its limit, none loses a
 * token to a refused call, and every concurrency count returns to zero.
 */
class PerValueContentionTest {

  private static final int THREADS = 8;
  private static final int VALUES = 1_000;
  private static final int ROUNDS = 5;
  private static final int COUNT = 20;

  private final GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();
  private final Integer[] values = new Integer[VALUES];

  PerValueContentionTest() {
    for (int i = 0; i < VALUES; i++) {
      values[i] = i;
    }
  }

  @Test
  void tokenBuckets_underContention_admitExactlyTheCountOfEveryValue() throws Exception {
    AtomicIntegerArray admitted = new AtomicIntegerArray(VALUES);
    AtomicLong refused = new AtomicLong();
    Function<Integer, Integer> guarded = Guard.of("perValue").perValue(0, COUNT).on(engine)
        .decorateFunction(value -> value);

    everyThreadOverEveryValue(i -> {
      try {
        admitted.incrementAndGet(guarded.apply(values[i]));
      } catch (RefusedException e) {
        refused.incrementAndGet();
      }
    });

    for (int i = 0; i < VALUES; i++) {
      assertThat(admitted.get(i)).as("value %d", i).isEqualTo(COUNT);
    }
    long attempts = (long) THREADS * ROUNDS * VALUES;
    assertThat(refused.get()).isEqualTo(attempts - (long) COUNT * VALUES);
    assertThat(engine.stats("perValue").totalPass()).isEqualTo((long) COUNT * VALUES);
    assertThat(engine.stats("perValue").totalRefused()).isEqualTo(refused.get());
  }

  @Test
  void pairsOfValues_underContention_refusedCallsConsumeNothing() throws Exception {
    AtomicIntegerArray used = new AtomicIntegerArray(VALUES);
    Function<List<Integer>, Boolean> guarded = Guard.of("pairs").perValue(0, COUNT).on(engine)
        .decorateFunction(pair -> true);
    List<List<Integer>> pairs = new ArrayList<>();
    for (int i = 0; i < VALUES; i++) {
      pairs.add(List.of(values[i], values[(i + 1) % VALUES]));
    }

    everyThreadOverEveryValue(i -> {
      try {
        guarded.apply(pairs.get(i));
        used.incrementAndGet(i);
        used.incrementAndGet((i + 1) % VALUES);
      } catch (RefusedException e) {
        // took nothing
      }
    });

    for (int i = 0; i < VALUES; i++) {
      assertThat(used.get(i)).as("value %d", i).isLessThanOrEqualTo(COUNT);
      int left = 0;
      while (admits(guarded, List.of(values[i]))) {
        left++;
      }
      assertThat(left).as("tokens left for value %d", i).isEqualTo(COUNT - used.get(i));
    }
  }

  @Test
  void concurrencyPerValue_underContention_neverExceedsTheLimitAndReturnsToZero()
      throws Exception {
    int limit = 2;
    AtomicIntegerArray running = new AtomicIntegerArray(VALUES);
    AtomicIntegerArray most = new AtomicIntegerArray(VALUES);
    Function<Integer, Integer> guarded = Guard.of("perValueRunning").perValueConcurrency(0, limit)
        .on(engine).decorateFunction(value -> {
          int now = running.incrementAndGet(value);
          most.accumulateAndGet(value, now, Math::max);
          Thread.onSpinWait();
          running.decrementAndGet(value);
          return value;
        });

    everyThreadOverEveryValue(i -> {
      try {
        guarded.apply(values[i]);
      } catch (RefusedException e) {
        // another thread holds this value's places
      }
    });

    for (int i = 0; i < VALUES; i++) {
      assertThat(most.get(i)).as("value %d", i).isBetween(1, limit);
    }
    assertThat(engine.stats("perValueRunning").concurrency()).isZero();
    Function<Integer, Integer> nested = Guard.of("perValueRunning").on(engine)
        .decorateFunction(value -> guarded.apply(value));
    for (int i = 0; i < VALUES; i++) {
      assertThat(nested.apply(values[i])).as("a place is free for value %d", i).isEqualTo(i);
    }
  }

  private static <T> boolean admits(Function<T, ?> guarded, T input) {
    try {
      guarded.apply(input);
      return true;
    } catch (RefusedException e) {
      return false;
    }
  }

  /** Each thread calls every value ROUNDS times, starting at its own offset. */
  private static void everyThreadOverEveryValue(IntConsumer call) throws Exception {
    Together.run(THREADS, thread -> {
      int offset = thread * (VALUES / THREADS);
      for (int n = 0; n < ROUNDS * VALUES; n++) {
        call.accept((offset + n) % VALUES);
      }
    });
  }
}
