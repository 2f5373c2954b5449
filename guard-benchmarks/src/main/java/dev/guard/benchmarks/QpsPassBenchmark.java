package dev.guard.benchmarks;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import com.alibaba.csp.sentinel.slots.block.RuleConstant;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiter;
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
 * Scenario 2: one rate limit of {@link Calls#HUGE_RATE} calls per second, so every call is
 * admitted and the pass path is measured.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class QpsPassBenchmark {
  /** guard: one QPS rule with a huge count, on its own engine, through the decorator with a fallback. */
  @State(Scope.Benchmark)
  public static class GuardState {
    final Supplier<Object> decorated =
        Guard.of("bench-qps-pass").qps(Calls.HUGE_RATE)
            .on(GuardEngine.builder().build())
            .decorateOrElse(Calls.BODY, refused -> Calls.REFUSED);

    /** Checks that the guard takes the measured path. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("guard QPS rule", this::call);
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


  /** A Sentinel QPS flow rule with a huge count. */
  @State(Scope.Benchmark)
  public static class SentinelState {
    static final String RESOURCE = "bench-qps-pass";

    public SentinelState() {
      Sentinel.addFlowRule(
          new FlowRule(RESOURCE).setGrade(RuleConstant.FLOW_GRADE_QPS).setCount(Calls.HUGE_RATE));
    }

    /** Checks that the rule admits every call. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("Sentinel QPS rule", this::call);
    }

    Object call() {
      return Sentinel.call(RESOURCE, Calls.BODY);
    }
  }

  /** A Resilience4j rate limiter with a huge limit per period that never waits. */
  @State(Scope.Benchmark)
  public static class Resilience4jState {
    final Supplier<Object> decorated =
        RateLimiter.decorateSupplier(
            Resilience4j.rateLimiter("bench-qps-pass", Calls.HUGE_RATE), Calls.BODY);

    /** Checks that the limiter admits every call. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("Resilience4j rate limiter", this::call);
    }

    Object call() {
      return Resilience4j.call(decorated);
    }
  }

  /** A Bucket4j local bucket with a huge capacity refilled greedily every second. */
  @State(Scope.Benchmark)
  public static class Bucket4jState {
    final Bucket bucket =
        Bucket.builder()
            .addLimit(
                limit ->
                    limit
                        .capacity(Calls.HUGE_RATE)
                        .refillGreedy(Calls.HUGE_RATE, Duration.ofSeconds(1)))
            .build();

    /** Checks that the bucket admits every call. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("Bucket4j bucket", this::call);
    }

    Object call() {
      return bucket.tryConsume(1) ? Calls.BODY.get() : Calls.REFUSED;
    }
  }

  /** A Guava rate limiter at a huge rate. */
  @State(Scope.Benchmark)
  public static class GuavaState {
    final com.google.common.util.concurrent.RateLimiter limiter =
        com.google.common.util.concurrent.RateLimiter.create(Calls.HUGE_RATE);

    /** Checks that the limiter admits every call. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("Guava rate limiter", this::call);
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

  /** {@code RateLimiter.decorateSupplier(limiter, body).get()}. */
  @Benchmark
  public Object resilience4j(Resilience4jState state) {
    return state.call();
  }

  /** {@code bucket.tryConsume(1)}, then the body. */
  @Benchmark
  public Object bucket4j(Bucket4jState state) {
    return state.call();
  }

  /** {@code limiter.tryAcquire()}, then the body. */
  @Benchmark
  public Object guava(GuavaState state) {
    return state.call();
  }
}
