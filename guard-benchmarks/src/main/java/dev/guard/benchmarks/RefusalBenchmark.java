package dev.guard.benchmarks;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import com.alibaba.csp.sentinel.slots.block.RuleConstant;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.ratelimiter.RateLimiter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
 * Scenario 5: the refusal path. Sentinel's rule has count 0 and refuses every call; the other
 * libraries cannot be configured below one permit, so they get one permit per second and refuse
 * all the other calls. Two more rows refuse through an open circuit breaker: guard's and
 * Resilience4j's, both forced open.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class RefusalBenchmark {
  /** guard: a QPS rule of 0: every call is refused, on its own engine, through the decorator with a fallback. */
  @State(Scope.Benchmark)
  public static class GuardState {
    final Supplier<Object> decorated =
        Guard.of("bench-refusal").qps(0)
            .on(GuardEngine.builder().build())
            .decorateOrElse(Calls.BODY, refused -> Calls.REFUSED);

    /** Checks that the guard takes the measured path. */
    @Setup
    public void check() {
      Sanity.requireMostlyRefused("guard QPS rule of 0", this::call);
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

  /** guard: an error-ratio circuit breaker forced open, through the decorator with a fallback. */
  @State(Scope.Benchmark)
  public static class GuardBreakerOpenState {
    final GuardEngine engine = GuardEngine.builder().build();
    final Supplier<Object> decorated =
        Guard.of("bench-breaker-open").errorRatio(0.5)
            .on(engine)
            .decorateOrElse(Calls.BODY, refused -> Calls.REFUSED);

    /** Opens the breaker and checks that every call is refused. */
    @Setup
    public void check() {
      engine.breakers("bench-breaker-open").forEach(dev.guard.api.CircuitBreaker::forceOpen);
      Sanity.require(
          engine.breakers("bench-breaker-open").get(0).state() == dev.guard.api.CircuitBreaker.State.FORCED_OPEN,
          "the guard breaker did not open");
      Sanity.requireMostlyRefused("guard open circuit breaker", this::call);
    }

    Object call() {
      return decorated.get();
    }
  }

  /** An open breaker: {@code Guard...errorRatio(..)...decorateOrElse(body, fallback).get()}. */
  @Benchmark
  public Object guardBreakerOpen(GuardBreakerOpenState state) {
    return state.call();
  }

  /** A Resilience4j circuit breaker forced open; {@code CallNotPermittedException} is caught. */
  @State(Scope.Benchmark)
  public static class Resilience4jBreakerOpenState {
    final CircuitBreaker breaker =
        CircuitBreaker.of(
            "bench-breaker-open",
            CircuitBreakerConfig.custom().writableStackTraceEnabled(false).build());
    final Supplier<Object> decorated = CircuitBreaker.decorateSupplier(breaker, Calls.BODY);

    /** Opens the breaker and checks that every call is refused. */
    @Setup
    public void check() {
      breaker.transitionToForcedOpenState();
      Sanity.requireMostlyRefused("Resilience4j open circuit breaker", this::call);
    }

    Object call() {
      return Resilience4j.call(decorated);
    }
  }

  /** An open breaker: the decorated supplier throws {@code CallNotPermittedException}. */
  @Benchmark
  public Object resilience4jBreakerOpen(Resilience4jBreakerOpenState state) {
    return state.call();
  }

  /**
   * guard at one call a second (so that the refusal knows a wait: the next window bucket), through
   * the decorator with a fallback that reads {@code retryAfterMillis()}, as an HTTP adapter does
   * for {@code Retry-After}. Run with {@code -prof gc}: 0 B per refusal.
   */
  @State(Scope.Benchmark)
  public static class GuardRetryAfterState {
    final Supplier<Object> decorated =
        Guard.of("bench-refusal-retry-after").qps(1)
            .on(GuardEngine.builder().build())
            .decorateOrElse(Calls.BODY,
                refused -> refused.retryAfterMillis() >= 0 ? Calls.REFUSED : Calls.ADMITTED);

    /** Checks that the guard takes the measured path. */
    @Setup
    public void check() {
      Sanity.requireMostlyRefused("guard QPS rule of 1 reading retryAfterMillis", this::call);
    }

    Object call() {
      return decorated.get();
    }
  }

  /** {@code decorateOrElse(body, refused -> refused.retryAfterMillis() ...).get()}. */
  @Benchmark
  public Object guardRetryAfter(GuardRetryAfterState state) {
    return state.call();
  }

  /**
   * guard's throwing refusal, as most callers meet it: a QPS rule of 0 behind each decorator shape;
   * the {@code RefusedException} is caught by the caller.
   */
  @State(Scope.Benchmark)
  public static class GuardThrowingState {
    final Guard closed = Guard.of("bench-refusal-throwing").qps(0).on(GuardEngine.builder().build());
    final Supplier<Object> supplier = closed.decorate(Calls.BODY);
    final Function<Object, Object> function = closed.decorateFunction(input -> input);
    final Callable<Object> callable = closed.decorateCallable(Calls.BODY::get);
    final Runnable runnable = closed.decorateRunnable(() -> { });

    /** Checks that every shape refuses. */
    @Setup
    public void check() {
      Sanity.requireMostlyRefused("guard decorate(..) at qps 0", () -> refused(supplier::get));
      Sanity.requireMostlyRefused("guard decorateFunction(..) at qps 0",
          () -> refused(() -> function.apply(Calls.ADMITTED)));
      Sanity.requireMostlyRefused("guard decorateCallable(..) at qps 0", () -> refused(() -> {
        try {
          return callable.call();
        } catch (RuntimeException e) {
          throw e;
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }));
      Sanity.requireMostlyRefused("guard decorateRunnable(..) at qps 0", () -> refused(() -> {
        runnable.run();
        return Calls.ADMITTED;
      }));
    }

    private static Object refused(Supplier<Object> call) {
      try {
        return call.get();
      } catch (RefusedException refusal) {
        return Calls.REFUSED;
      }
    }
  }

  /** {@code decorate(body).get()} throws {@code RefusedException.Flow}, which is caught. */
  @Benchmark
  public Object guardThrowingSupplier(GuardThrowingState state) {
    try {
      return state.supplier.get();
    } catch (RefusedException refused) {
      return Calls.REFUSED;
    }
  }

  /** {@code decorateFunction(fn).apply(x)} throws, and the refusal is caught. */
  @Benchmark
  public Object guardThrowingFunction(GuardThrowingState state) {
    try {
      return state.function.apply(Calls.ADMITTED);
    } catch (RefusedException refused) {
      return Calls.REFUSED;
    }
  }

  /** {@code decorateCallable(c).call()} throws, and the refusal is caught. */
  @Benchmark
  public Object guardThrowingCallable(GuardThrowingState state) throws Exception {
    try {
      return state.callable.call();
    } catch (RefusedException refused) {
      return Calls.REFUSED;
    }
  }

  /** {@code decorateRunnable(r).run()} throws, and the refusal is caught. */
  @Benchmark
  public Object guardThrowingRunnable(GuardThrowingState state) {
    try {
      state.runnable.run();
      return Calls.ADMITTED;
    } catch (RefusedException refused) {
      return Calls.REFUSED;
    }
  }


  /** A Sentinel QPS flow rule with count 0; the {@code RefusedException} is caught. */
  @State(Scope.Benchmark)
  public static class SentinelState {
    static final String RESOURCE = "bench-refusal";

    public SentinelState() {
      Sentinel.addFlowRule(
          new FlowRule(RESOURCE).setGrade(RuleConstant.FLOW_GRADE_QPS).setCount(0));
    }

    /** Checks that the rule refuses nearly every call. */
    @Setup
    public void check() {
      Sanity.requireMostlyRefused("Sentinel QPS rule with count 0", this::call);
    }

    Object call() {
      return Sentinel.call(RESOURCE, Calls.BODY);
    }
  }

  /** A Resilience4j rate limiter of one permit per second; {@code RequestNotPermitted} is caught. */
  @State(Scope.Benchmark)
  public static class Resilience4jState {
    final Supplier<Object> decorated =
        RateLimiter.decorateSupplier(Resilience4j.rateLimiter("bench-refusal", 1), Calls.BODY);

    /** Checks that the limiter refuses nearly every call. */
    @Setup
    public void check() {
      Sanity.requireMostlyRefused("Resilience4j rate limiter at 1/s", this::call);
    }

    Object call() {
      return Resilience4j.call(decorated);
    }
  }

  /** A Bucket4j bucket of one token refilled once a second. */
  @State(Scope.Benchmark)
  public static class Bucket4jState {
    final Bucket bucket =
        Bucket.builder()
            .addLimit(limit -> limit.capacity(1).refillGreedy(1, Duration.ofSeconds(1)))
            .build();

    /** Checks that the bucket refuses nearly every call. */
    @Setup
    public void check() {
      Sanity.requireMostlyRefused("Bucket4j bucket at 1/s", this::call);
    }

    Object call() {
      return bucket.tryConsume(1) ? Calls.BODY.get() : Calls.REFUSED;
    }
  }

  /** A Guava rate limiter at one permit per second. */
  @State(Scope.Benchmark)
  public static class GuavaState {
    final com.google.common.util.concurrent.RateLimiter limiter =
        com.google.common.util.concurrent.RateLimiter.create(1.0);

    /** Checks that the limiter refuses nearly every call. */
    @Setup
    public void check() {
      Sanity.requireMostlyRefused("Guava rate limiter at 1/s", this::call);
    }

    Object call() {
      return limiter.tryAcquire() ? Calls.BODY.get() : Calls.REFUSED;
    }
  }

  /** {@code SphU.entry} throws {@code FlowException}, which is caught. */
  @Benchmark
  public Object sentinel(SentinelState state) {
    return state.call();
  }

  /** The decorated supplier throws {@code RequestNotPermitted}, which is caught. */
  @Benchmark
  public Object resilience4j(Resilience4jState state) {
    return state.call();
  }

  /** {@code bucket.tryConsume(1)} returns false. */
  @Benchmark
  public Object bucket4j(Bucket4jState state) {
    return state.call();
  }

  /** {@code limiter.tryAcquire()} returns false. */
  @Benchmark
  public Object guava(GuavaState state) {
    return state.call();
  }
}
