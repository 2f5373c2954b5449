package dev.guard.benchmarks;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import com.alibaba.csp.sentinel.slots.block.RuleConstant;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRule;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
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
 * Scenario 3: the rate limit of {@link QpsPassBenchmark} plus a circuit breaker on error ratio
 * that never opens, because the body never fails.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class QpsWithBreakerBenchmark {
  /**
   * guard: the QPS rule of {@link QpsPassBenchmark} plus an error-ratio breaker like Sentinel's
   * (open above 50 % errors, at least 5 calls, 10 s open) on guard's default sliding window (1 s
   * in 10 buckets), on its own engine, through the decorator with a fallback.
   */
  @State(Scope.Benchmark)
  public static class GuardState {
    final GuardEngine engine = GuardEngine.builder().build();
    final Supplier<Object> decorated =
        Guard.of("bench-qps-breaker").qps(Calls.HUGE_RATE)
            .errorRatio(0.5).openFor(Duration.ofSeconds(10))
            .on(engine)
            .decorateOrElse(Calls.BODY, refused -> Calls.REFUSED);

    /** Checks that the pair admits every call and the breaker stays closed. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("guard QPS rule with circuit breaker", this::call);
      Sanity.require(
          engine.breakers("bench-qps-breaker").size() == 1
              && engine.breakers("bench-qps-breaker").get(0).state()
                  == dev.guard.api.CircuitBreaker.State.CLOSED,
          "the guard breaker is missing or not closed: " + engine.breakers("bench-qps-breaker"));
    }

    Object call() {
      return decorated.get();
    }
  }

  /** {@code Guard...qps(..).errorRatio(..)...decorateOrElse(body, fallback).get()}. */
  @Benchmark
  public Object guard(GuardState state) {
    return state.call();
  }

  /**
   * A Sentinel QPS flow rule with a huge count and an exception-ratio degrade rule (open above 50 %
   * errors, at least 5 calls per 1 s window, 10 s open).
   */
  @State(Scope.Benchmark)
  public static class SentinelState {
    static final String RESOURCE = "bench-qps-breaker";

    public SentinelState() {
      Sentinel.addFlowRule(
          new FlowRule(RESOURCE).setGrade(RuleConstant.FLOW_GRADE_QPS).setCount(Calls.HUGE_RATE));
      Sentinel.addCircuitBreakerRule(
          new DegradeRule(RESOURCE)
              .setGrade(RuleConstant.DEGRADE_GRADE_EXCEPTION_RATIO)
              .setCount(0.5)
              .setMinRequestAmount(5)
              .setStatIntervalMs(1000)
              .setTimeWindow(10));
    }

    /** Checks that the rules admit every call. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("Sentinel QPS rule with degrade rule", this::call);
    }

    Object call() {
      return Sentinel.callTraced(RESOURCE, Calls.BODY);
    }
  }

  /**
   * A Resilience4j circuit breaker with the default configuration (50 % failure rate over the last
   * 100 calls) around the rate limiter of {@link QpsPassBenchmark}. The breaker is the outer
   * decorator, the order Resilience4j documents for combining the two.
   */
  @State(Scope.Benchmark)
  public static class Resilience4jState {
    final CircuitBreaker breaker =
        CircuitBreakerRegistry.ofDefaults().circuitBreaker("bench-qps-breaker");
    final Supplier<Object> decorated =
        CircuitBreaker.decorateSupplier(
            breaker,
            RateLimiter.decorateSupplier(
                Resilience4j.rateLimiter("bench-qps-breaker", Calls.HUGE_RATE), Calls.BODY));

    /** Checks that the pair admits every call and the breaker stays closed. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("Resilience4j rate limiter with circuit breaker", this::call);
      Sanity.require(
          breaker.getState() == CircuitBreaker.State.CLOSED,
          "the Resilience4j breaker is " + breaker.getState());
    }

    Object call() {
      return Resilience4j.call(decorated);
    }
  }

  /** {@code SphU.entry}, the body, {@code Tracer.traceEntry} on error, {@code exit}. */
  @Benchmark
  public Object sentinel(SentinelState state) {
    return state.call();
  }

  /** {@code CircuitBreaker.decorateSupplier(breaker, RateLimiter.decorateSupplier(..)).get()}. */
  @Benchmark
  public Object resilience4j(Resilience4jState state) {
    return state.call();
  }
}
