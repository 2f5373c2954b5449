/**
 * Redis for applications that run on several instances: {@link dev.guard.redis.RedisTokenService}
 * shares the windows of cluster flow rules, and {@link dev.guard.redis.RedisRuleSource} keeps one
 * rule set in a Redis key and pushes every change of it to each instance.
 */
@NullMarked
package dev.guard.redis;

import org.jspecify.annotations.NullMarked;
