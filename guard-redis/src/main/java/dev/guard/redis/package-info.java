/** A token service on Redis for cluster flow rules: {@link dev.guard.redis.RedisTokenService}. */
@NullMarked
package dev.guard.redis;

import org.jspecify.annotations.NullMarked;
