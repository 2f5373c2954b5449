package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every decorator shape runs a call without allocating, admitted or refused: the entry and the
 * implicit context are reused per thread, the bodies are method references made once, a function's
 * argument is held in the reused entry, and a refusal is a preallocated value. A per-value
 * rule over a steady set of values allocates nothing either: a known value's state is found with
 * one hash-map read. Each shape is first run long enough to be compiled, then 100,000 calls are
 * measured (three times) with the per-thread allocation counter, which reads exactly 0 for an
 * empty measurement, so the assertion needs no slack.
 */
@Tag("process")
class DecoratorAllocationTest {

  private static final int WARM_UP = 300_000;
  private static final int MEASURED = 100_000;
  private static final Object RESULT = new Object();
  private static final Object FALLBACK = new Object();

  private final GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();
  private final Guard open = Guard.of("open").qps(1e9).on(engine);
  private final Guard closed = Guard.of("closed").qps(0).on(engine);
  private final Guard breaker = Guard.of("breaker").qps(1e9).errorRatio(0.5).on(engine);
  private final Guard opened = Guard.of("opened").errorRatio(0.5).on(engine);

  private static MethodHandle allocationCounter() throws Throwable {
    Object bean = Class.forName("java.lang.management.ManagementFactory")
        .getMethod("getThreadMXBean").invoke(null);
    Class<?> extended = Class.forName("com.sun.management.ThreadMXBean");
    assertThat(extended.isInstance(bean)).as("per-thread allocation counter available").isTrue();
    MethodHandle counter = MethodHandles.publicLookup()
        .findVirtual(extended, "getCurrentThreadAllocatedBytes", MethodType.methodType(long.class));
    return counter.bindTo(bean);
  }

  /**
   * Measures with the same loop that warmed up, so that nothing is compiled while measuring, and
   * returns the least of three measurements: an allocation per call shows in every one, while a
   * one-off recompilation (code briefly interpreted, without escape analysis) shows in one only.
   */
  private static long allocatedBy(Runnable call) throws Throwable {
    MethodHandle counter = allocationCounter();
    for (int round = 0; round < 3; round++) {
      repeat(call, WARM_UP / 3);
    }
    long least = Long.MAX_VALUE;
    for (int round = 0; round < 3; round++) {
      long before = (long) counter.invokeExact();
      repeat(call, MEASURED);
      least = Math.min(least, (long) counter.invokeExact() - before);
    }
    return least;
  }

  private static void repeat(Runnable call, int times) {
    for (int i = 0; i < times; i++) {
      call.run();
    }
  }

  @Test
  void decorate_admitted_allocatesNothing() throws Throwable {
    Supplier<Object> guarded = open.decorate(() -> RESULT);

    assertThat(allocatedBy(guarded::get)).isZero();
  }

  @Test
  void decorate_adaptiveLimit_admitted_allocatesNothing() throws Throwable {
    Supplier<Object> guarded =
        Guard.of("adaptive").adaptiveConcurrency().on(engine).decorate(() -> RESULT);

    assertThat(allocatedBy(guarded::get)).isZero();
  }

  /**
   * With time moving, the statistics' buckets roll over and that allocates a little; closing the
   * adaptive limit's windows (one per 2,000 calls here) adds nothing to it. Both shapes run once
   * before they are measured, so that neither measurement includes the other's compilation.
   */
  @Test
  void decorate_adaptiveLimitClosingWindows_allocatesNoMoreThanAFixedLimit() throws Throwable {
    allocatedWithMovingTime(guard -> guard.concurrency(1000)); // both shapes compiled first
    allocatedWithMovingTime(guard -> guard.adaptiveConcurrency());
    long fixed = allocatedWithMovingTime(guard -> guard.concurrency(1000));
    long adaptive = allocatedWithMovingTime(guard -> guard.adaptiveConcurrency());

    assertThat(adaptive).isLessThanOrEqualTo(fixed);
  }

  private static long allocatedWithMovingTime(Function<Guard, Guard> rule) throws Throwable {
    ManualClock clock = new ManualClock();
    GuardEngine own = GuardEngine.builder().clock(clock).build();
    Supplier<Object> guarded = rule.apply(Guard.of("moving")).on(own).decorate(() -> {
      clock.advanceNanos(50_000);
      return RESULT;
    });
    return allocatedBy(guarded::get);
  }

  @Test
  void decorateOrElse_adaptiveLimitRefused_allocatesNothing() throws Throwable {
    Supplier<Object> running = Guard.of("full").adaptiveConcurrency().limits(1, 1, 1).on(engine)
        .decorateOrElse(() -> RESULT, refused -> FALLBACK);
    Supplier<Object> outer = Guard.of("full").on(engine).decorateOrElse(() -> {
      Object inner = running.get(); // the call in flight is this one: the nested one is refused
      return inner == FALLBACK ? RESULT : FALLBACK;
    }, refused -> FALLBACK);

    assertThat(outer.get()).isSameAs(RESULT);
    assertThat(allocatedBy(outer::get)).isZero();
  }

  @Test
  void decorateFunction_admitted_allocatesNothing() throws Throwable {
    Function<Object, Object> guarded = open.decorateFunction(argument -> argument);

    assertThat(allocatedBy(() -> guarded.apply(RESULT))).isZero();
  }

  @Test
  void decorateFunction_perValueOverASteadySetOfValues_allocatesNothing() throws Throwable {
    String[] users = new String[1000];
    for (int i = 0; i < users.length; i++) {
      users[i] = "user-" + i;
    }
    int[] next = {0};
    Function<String, Object> guarded = Guard.of("perUser").perValue(0, 1_000_000)
        .on(engine).decorateFunction(user -> RESULT);

    assertThat(allocatedBy(() -> {
      guarded.apply(users[next[0]]);
      next[0] = next[0] + 1 == users.length ? 0 : next[0] + 1;
    })).isZero();
  }

  @Test
  void keyedShapes_perValue_allocateNothing() throws Throwable {
    Guard perValue = Guard.of("perKey").perValue(0, 1_000_000).on(engine);
    Function<Object[], Object> keyed = perValue.decorateKeyedFunction(pair -> pair[0], pair -> RESULT);
    BiFunction<Object, Object, Object> both = Guard.of("perSecond").perValue(1, 1_000_000)
        .on(engine).decorateBiFunction((first, second) -> RESULT);
    Object[] pair = {"user-1", "tenant-1"};
    Supplier<Object> body = () -> RESULT;

    assertThat(allocatedBy(() -> {
      keyed.apply(pair);
      both.apply(pair[0], pair[1]);
      perValue.callWithKey(pair[1], body);
    })).isZero();
  }

  @Test
  void decorateCallableAndRunnable_admitted_allocateNothing() throws Throwable {
    Callable<Object> callable = open.decorateCallable(() -> RESULT);
    Runnable runnable = open.decorateRunnable(() -> { });

    assertThat(allocatedBy(() -> {
      try {
        callable.call();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      runnable.run();
    })).isZero();
  }

  @Test
  void callRunAndCallOrElse_admitted_allocateNothing() throws Throwable {
    Supplier<Object> body = () -> RESULT;
    Runnable nothing = () -> { };

    assertThat(allocatedBy(() -> {
      open.call(body);
      open.run(nothing);
      open.callOrElse(body, refused -> FALLBACK);
    })).isZero();
  }

  @Test
  void decorateOrElseAndCallOrElse_refused_allocateNothing() throws Throwable {
    Supplier<Object> guarded = closed.decorateOrElse(() -> RESULT, refused -> FALLBACK);
    Supplier<Object> body = () -> RESULT;

    assertThat(allocatedBy(() -> {
      guarded.get();
      closed.callOrElse(body, refused -> FALLBACK);
    })).isZero();
    assertThat(guarded.get()).isSameAs(FALLBACK);
  }

  @Test
  void refused_readingRetryAfterMillis_allocatesNothing() throws Throwable {
    Guard limited = Guard.of("limited").qps(1).on(engine);
    Supplier<Object> body = () -> RESULT;
    long[] waits = {0};
    Function<RefusedException, Object> fallback = refused -> {
      waits[0] += refused.retryAfterMillis();
      return FALLBACK;
    };
    limited.call(body); // the one pass of this second; the clock stands still

    assertThat(allocatedBy(() -> limited.callOrElse(body, fallback))).isZero();
    assertThat(waits[0]).as("the wait was known for every refusal").isPositive();
  }

  @Test
  void decorate_throughAClosedBreaker_allocatesNothing() throws Throwable {
    Supplier<Object> guarded = breaker.decorate(() -> RESULT);
    Supplier<Object> recovering = breaker.decorateOrRecover(() -> RESULT, failure -> FALLBACK);

    assertThat(allocatedBy(() -> {
      guarded.get();
      recovering.get();
    })).isZero();
  }

  @Test
  void openBreaker_refusal_allocatesNothing() throws Throwable {
    Supplier<Object> orElse = opened.decorateOrElse(() -> RESULT, refused -> FALLBACK);
    Supplier<Object> recovering = opened.decorateOrRecover(() -> RESULT, failure -> FALLBACK);
    orElse.get();
    engine.breakers("opened").get(0).forceOpen();

    assertThat(allocatedBy(() -> {
      orElse.get();
      recovering.get();
    })).isZero();
    assertThat(orElse.get()).isSameAs(FALLBACK);
  }
}
