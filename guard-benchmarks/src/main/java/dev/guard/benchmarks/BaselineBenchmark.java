package dev.guard.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Baselines that put the guarded numbers in proportion: the unguarded body, one contended-safe
 * counter increment (what a statistics bucket does per event) and one clock read (what a time
 * window needs per call).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class BaselineBenchmark {

  /** The body, and one counter shared by all threads. */
  @State(Scope.Benchmark)
  public static class Shared {
    // Not final: read from the state on each call, as the guarded benchmarks read their objects.
    Supplier<Object> body = Calls.BODY;
    final LongAdder adder = new LongAdder();
  }

  /** The body called directly, with no protection. */
  @Benchmark
  public Object supplier(Shared shared) {
    return shared.body.get();
  }

  /** {@code LongAdder.increment()} on an adder shared by all threads. */
  @Benchmark
  public void longAdder(Shared shared) {
    shared.adder.increment();
  }

  /** {@code System.nanoTime()}. */
  @Benchmark
  public long nanoTime() {
    return System.nanoTime();
  }
}
