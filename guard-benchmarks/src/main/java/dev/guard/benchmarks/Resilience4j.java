package dev.guard.benchmarks;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.ratelimiter.RequestNotPermitted;
import java.time.Duration;
import java.util.function.Supplier;

/** How the benchmarks configure and call Resilience4j. */
final class Resilience4j {
  private Resilience4j() {}

  /**
   * A rate limiter that allows {@code permitsPerSecond} calls per one-second period and never
   * waits: a call over the limit is refused at once ({@code timeoutDuration} zero) instead of the
   * default five-second wait. Stack traces of {@code RequestNotPermitted} are turned off with the
   * documented {@code writableStackTraceEnabled(false)}, as the other libraries' refusals carry no
   * stack trace either.
   */
  static RateLimiter rateLimiter(String name, int permitsPerSecond) {
    RateLimiterConfig config =
        RateLimiterConfig.custom()
            .limitForPeriod(permitsPerSecond)
            .limitRefreshPeriod(Duration.ofSeconds(1))
            .timeoutDuration(Duration.ZERO)
            .writableStackTraceEnabled(false)
            .build();
    return RateLimiterRegistry.of(config).rateLimiter(name);
  }

  /** Calls a decorated supplier and turns Resilience4j's refusals into {@link Calls#REFUSED}. */
  static Object call(Supplier<Object> decorated) {
    try {
      return decorated.get();
    } catch (RequestNotPermitted | CallNotPermittedException e) {
      return Calls.REFUSED;
    }
  }
}
