package dev.guard.benchmarks;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The pass path of an adaptive concurrency limit next to a fixed {@code concurrency(n)} in the
 * same run: one admitted call at a time through each, so the adaptive limit pays its entry
 * compare-and-set, its exit sums and, every 100 ms, the window's close.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class AdaptiveConcurrencyBenchmark {

  /** guard: {@code adaptiveConcurrency()} with the defaults, on its own engine. */
  @State(Scope.Benchmark)
  public static class AdaptiveState {
    final Supplier<Object> decorated =
        Guard.of("bench-adaptive").adaptiveConcurrency()
            .on(GuardEngine.builder().build())
            .decorateOrElse(Calls.BODY, refused -> Calls.REFUSED);

    /** Checks that the guard takes the measured path. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("guard adaptive concurrency", this::call);
    }

    Object call() {
      return decorated.get();
    }
  }

  /** guard: a fixed {@code concurrency(1000)}, on its own engine. */
  @State(Scope.Benchmark)
  public static class FixedState {
    final Supplier<Object> decorated =
        Guard.of("bench-fixed-concurrency").concurrency(1000)
            .on(GuardEngine.builder().build())
            .decorateOrElse(Calls.BODY, refused -> Calls.REFUSED);

    /** Checks that the guard takes the measured path. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("guard fixed concurrency", this::call);
    }

    Object call() {
      return decorated.get();
    }
  }

  /** {@code Guard.of(..).adaptiveConcurrency()...decorateOrElse(body, fallback).get()}. */
  @Benchmark
  public Object adaptive(AdaptiveState state) {
    return state.call();
  }

  /** {@code Guard.of(..).concurrency(1000)...decorateOrElse(body, fallback).get()}. */
  @Benchmark
  public Object fixed(FixedState state) {
    return state.call();
  }
}
