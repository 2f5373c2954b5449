package dev.guard.benchmarks;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import com.alibaba.csp.sentinel.slots.block.RuleConstant;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import java.time.Duration;
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
 * Scenario 6b: pacing (evenly spaced admissions, callers may queue up to a maximum wait) in its
 * steady state. The rate of {@link Calls#HUGE_RATE} spaces calls 1 ns apart, so a call never has
 * to wait and the pacing bookkeeping alone is measured.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class PacingBenchmark {
  /** guard: a pacing rule with a huge count (1 ns spacing), on its own engine, through the decorator with a fallback. */
  @State(Scope.Benchmark)
  public static class GuardState {
    final Supplier<Object> decorated =
        Guard.of("bench-pacing").qps(Calls.HUGE_RATE).pacing(MAX_QUEUEING)
            .on(GuardEngine.builder().build())
            .decorateOrElse(Calls.BODY, refused -> Calls.REFUSED);

    /** Checks that the guard takes the measured path. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("guard pacing rule", this::call);
    }

    Object call() {
      return decorated.get();
    }
  }

  /** {@code Guard...decorateOrElse(body, fallback).get()}. */
  @Benchmark
  public Object guard(GuardState state) {
    return state.call();
  }


  /** The longest a call may queue for its turn. */
  static final Duration MAX_QUEUEING = Duration.ofMillis(500);

  /**
   * A Sentinel QPS flow rule with the {@code RATE_LIMITER} behaviour (Sentinel's pacing); at this
   * rate Sentinel uses its nanosecond clock.
   */
  @State(Scope.Benchmark)
  public static class SentinelState {
    static final String RESOURCE = "bench-pacing";

    public SentinelState() {
      Sentinel.addFlowRule(
          new FlowRule(RESOURCE)
              .setGrade(RuleConstant.FLOW_GRADE_QPS)
              .setCount(Calls.HUGE_RATE)
              .setControlBehavior(RuleConstant.CONTROL_BEHAVIOR_RATE_LIMITER)
              .setMaxQueueingTimeMs((int) MAX_QUEUEING.toMillis()));
    }

    /** Checks that the rule admits every call. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("Sentinel pacing rule", this::call);
    }

    Object call() {
      return Sentinel.call(RESOURCE, Calls.BODY);
    }
  }

  /**
   * Guava's plain rate limiter, which spaces permits evenly, asked with the same maximum wait:
   * {@code tryAcquire(timeout)} waits for its turn when that turn comes within the timeout.
   */
  @State(Scope.Benchmark)
  public static class GuavaState {
    final com.google.common.util.concurrent.RateLimiter limiter =
        com.google.common.util.concurrent.RateLimiter.create(Calls.HUGE_RATE);

    /** Checks that the limiter admits every call. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("Guava rate limiter with a wait", this::call);
    }

    Object call() {
      return limiter.tryAcquire(MAX_QUEUEING) ? Calls.BODY.get() : Calls.REFUSED;
    }
  }

  /** {@code SphU.entry} in try-with-resources around the body. */
  @Benchmark
  public Object sentinel(SentinelState state) {
    return state.call();
  }

  /** {@code limiter.tryAcquire(500 ms)}, then the body. */
  @Benchmark
  public Object guava(GuavaState state) {
    return state.call();
  }
}
