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
 * Scenario 6a: a warm-up rate limit in its steady state. The rate is so high that even the cold
 * rate (a third of it) admits every call, so each call pays for the warm-up arithmetic and
 * passes.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class WarmUpBenchmark {
  /** guard: the same warm-up QPS rule as Sentinel's (RATE per second), on its own engine, through the decorator with a fallback. */
  @State(Scope.Benchmark)
  public static class GuardState {
    final Supplier<Object> decorated =
        Guard.of("bench-warm-up").qps(RATE).warmUp(Duration.ofSeconds(10))
            .on(GuardEngine.builder().build())
            .decorateOrElse(Calls.BODY, refused -> Calls.REFUSED);

    /** Checks that the guard takes the measured path. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("guard warm-up rule", this::call);
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


  /**
   * The warm-up rate. Lower than {@link Calls#HUGE_RATE} because Sentinel computes its token
   * thresholds as {@code int}s from {@code rate × period}: at 1e9 per second over 10 s the maximum
   * token count overflows to a negative number, the stored tokens never reach the warning level
   * and the rule quietly acts as a plain QPS limit. At 1e8 the thresholds fit (5e8 and 1e9 tokens)
   * and the cold rate, a third of the rate, is still 3.3e7 per second, far above what two threads
   * can call.
   */
  static final int RATE = 100_000_000;

  /** The warm-up period. */
  static final int PERIOD_SECONDS = 10;

  /** A Sentinel QPS flow rule with the {@code WARM_UP} behaviour (cold factor 3, the default). */
  @State(Scope.Benchmark)
  public static class SentinelState {
    static final String RESOURCE = "bench-warm-up";

    public SentinelState() {
      Sentinel.addFlowRule(
          new FlowRule(RESOURCE)
              .setGrade(RuleConstant.FLOW_GRADE_QPS)
              .setCount(RATE)
              .setControlBehavior(RuleConstant.CONTROL_BEHAVIOR_WARM_UP)
              .setWarmUpPeriodSec(PERIOD_SECONDS));
    }

    /** Checks that the rule admits every call. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("Sentinel warm-up rule", this::call);
    }

    Object call() {
      return Sentinel.call(RESOURCE, Calls.BODY);
    }
  }

  /** A Guava {@code SmoothWarmingUp} rate limiter, {@code RateLimiter.create(rate, period)}. */
  @State(Scope.Benchmark)
  public static class GuavaState {
    final com.google.common.util.concurrent.RateLimiter limiter =
        com.google.common.util.concurrent.RateLimiter.create(
            RATE, Duration.ofSeconds(PERIOD_SECONDS));

    /** Checks that the limiter admits every call. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("Guava warming-up rate limiter", this::call);
    }

    Object call() {
      return limiter.tryAcquire() ? Calls.BODY.get() : Calls.REFUSED;
    }
  }

  /** {@code SphU.entry} in try-with-resources around the body. */
  @Benchmark
  public Object sentinel(SentinelState state) {
    return state.call();
  }

  /** {@code limiter.tryAcquire()}, then the body. */
  @Benchmark
  public Object guava(GuavaState state) {
    return state.call();
  }
}
