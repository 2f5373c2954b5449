/**
 * What guard's own tests share, so that none of them fails by chance. {@link
 * dev.guard.testing.RedisServer} starts a real {@code redis-server} on a port it bound itself (a
 * port taken meanwhile means another try on another port, never a port probed and released
 * first); {@link dev.guard.testing.RedisClusterServers} joins three of them into a Redis Cluster;
 * {@link dev.guard.testing.RefusingPort} holds a loopback port where every connection is refused;
 * {@link dev.guard.testing.Await} waits, bounded, for a condition and names it when it gives up;
 * {@link dev.guard.testing.Together} runs work on threads released at once. It needs nothing but
 * the JDK, so every module's tests can use it, the engine's included; the engine's scenario
 * helpers, which need the engine, stay in guard-engine's {@code src/testsupport}.
 */
@NullMarked
package dev.guard.testing;

import org.jspecify.annotations.NullMarked;
