package dev.guard.spring.boot;

import dev.guard.api.CircuitBreaker;
import dev.guard.engine.GuardEngine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The health contributor {@code guard}: UP while no circuit breaker is open, and the configured
 * status ({@code guard.actuator.health-open-breakers}, default {@code DEGRADED}) while one is open
 * or forced open, with the open breakers in its details. A custom status such as DEGRADED leaves
 * the application's overall status to the others unless the application orders it ({@code
 * management.endpoint.health.status.order}): an open breaker protects a dependency, it does not
 * make this instance unfit to serve.
 *
 * <p>With a Redis token service, the details also hold {@code redis}: whether it answers and
 * whether Redis may evict guard's keys ({@link RedisHealth}); neither changes the status.
 */
final class GuardHealthIndicator extends AbstractHealthIndicator {

  private final GuardEngine engine;
  private final Status whenOpen;
  private final @Nullable Supplier<Map<String, Object>> redis;

  GuardHealthIndicator(GuardEngine engine, String whenOpen,
      @Nullable Supplier<Map<String, Object>> redis) {
    super("guard health check failed");
    this.engine = engine;
    this.whenOpen = new Status(whenOpen.strip().toUpperCase(java.util.Locale.ROOT));
    this.redis = redis;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    List<Object> open = new ArrayList<>();
    int breakers = 0;
    for (String resource : new TreeSet<>(engine.resources())) {
      List<CircuitBreaker> own = engine.breakers(resource);
      for (int i = 0; i < own.size(); i++) {
        breakers++;
        CircuitBreaker breaker = own.get(i);
        CircuitBreaker.State state = breaker.state();
        if (state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.FORCED_OPEN) {
          Map<String, Object> view = new LinkedHashMap<>();
          view.put("resource", resource);
          view.put("index", i);
          view.put("state", GuardEndpoint.state(state));
          view.put("retryAfterMs", breaker.retryAfter().toMillis());
          open.add(view);
        }
      }
    }
    builder.status(open.isEmpty() ? Status.UP : whenOpen)
        .withDetail("breakers", breakers)
        .withDetail("open", open);
    Supplier<Map<String, Object>> tokens = redis;
    if (tokens != null) {
      builder.withDetail("redis", tokens.get());
    }
  }
}
