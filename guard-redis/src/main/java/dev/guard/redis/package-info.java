/**
 * Redis for applications that run on several instances: {@link dev.guard.redis.RedisTokenService}
 * shares the windows of cluster flow rules, {@link dev.guard.redis.RedisRuleSource} keeps one
 * rule set in a Redis key and pushes every change of it to each instance, and {@link
 * dev.guard.redis.RedisFleet} lets every instance announce itself and its figures so that any one
 * of them shows the whole fleet.
 */
@NullMarked
package dev.guard.redis;

import org.jspecify.annotations.NullMarked;
