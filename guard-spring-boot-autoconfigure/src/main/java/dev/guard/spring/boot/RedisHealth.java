package dev.guard.spring.boot;

import dev.guard.engine.GuardEngine;
import dev.guard.redis.RedisTokenService;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The {@code redis} details of the health contributor {@code guard}, for an engine whose token
 * service is a {@link RedisTokenService}: {@code available} (whether Redis answered the last
 * request) and {@code eviction} ({@link RedisTokenService#eviction()}: whether Redis may evict
 * guard's keys, read at each health check). Loaded only when guard-redis is on the class path.
 */
final class RedisHealth {

  private RedisHealth() {}

  /** The details' source, or null when the engine's token service is not on Redis. */
  static @Nullable Supplier<Map<String, Object>> of(GuardEngine engine) {
    if (!(engine.tokenService().orElse(null) instanceof RedisTokenService tokens)) {
      return null;
    }
    return () -> {
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("available", tokens.available());
      details.put("eviction", tokens.eviction());
      return details;
    };
  }
}
