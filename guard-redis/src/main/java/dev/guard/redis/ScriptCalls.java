package dev.guard.redis;

import dev.guard.spi.TimeSource;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link RedisTokenService} asks Redis: the connection, the request timeout, the window
 * clock, the namespace's request limit, and the {@link Availability} every outcome is counted in.
 *
 * <p>Invariants: every request made through here ({@link #ask}, {@link #run}, {@link #remove})
 * counts exactly one outcome, a success ({@link Availability#succeeded()}) when Redis answered and
 * a failure when it did not, and no Redis error escapes (a failure is a {@code null} answer). While the service backs off, {@link
 * #link()} answers {@code null} without asking. A flow id's keys all carry the hash tag {@code
 * {namespace:flowId}} ({@link #prefix}), so they share one Redis Cluster slot; the namespace's
 * request counter {@code guard:{namespace}:r} lives in the scripts' own keys on one server, and is
 * a call of its own on Redis Cluster.
 */
final class ScriptCalls {

  private final Connector connector;
  private final Availability availability;
  private final Duration requestTimeout;
  private final String namespace;
  private final String instanceId;
  private final String instanceExpiryMs;
  private final String limit;
  private final String @Nullable [] limiterKeys;
  private final @Nullable TimeSource windowClock;
  private volatile boolean closed;

  ScriptCalls(Connector connector, Availability availability, Duration requestTimeout,
      String namespace, String instanceId, Duration instanceExpiry, int maxRequestsPerSecond,
      @Nullable TimeSource windowClock) {
    this.connector = connector;
    this.availability = availability;
    this.requestTimeout = requestTimeout;
    this.namespace = namespace;
    this.instanceId = instanceId;
    this.instanceExpiryMs = Long.toString(instanceExpiry.toMillis());
    this.limit = Integer.toString(maxRequestsPerSecond);
    this.limiterKeys = maxRequestsPerSecond > 0
        ? new String[] {"guard:{" + namespace + "}:r"} : null;
    this.windowClock = windowClock;
  }

  Connector connector() {
    return connector;
  }

  Availability availability() {
    return availability;
  }

  /** This instance's id, registered by every flow and concurrency request. */
  String instanceId() {
    return instanceId;
  }

  /** How long an instance counts after its last request, in ms, as the scripts read it. */
  String instanceExpiryMs() {
    return instanceExpiryMs;
  }

  boolean closed() {
    return closed;
  }

  void close() {
    closed = true;
  }

  /** The prefix of a flow id's keys: one hash tag, so they share a Redis Cluster slot. */
  String prefix(String flowId) {
    return "guard:{" + namespace + ":" + flowId + "}";
  }

  /** The namespace's counter key for the decision script's own keys; none on Redis Cluster. */
  String @Nullable [] ownLimiterKeys() {
    return connector.cluster() ? null : limiterKeys;
  }

  /** The limit the decision script counts itself: none on Redis Cluster (a call of its own). */
  String ownLimit() {
    return limiterKeys != null && !connector.cluster() ? limit : "0";
  }

  /** The connection; null (a failure counted where it is one) when there is none to ask. */
  Connector.@Nullable Link link() {
    if (availability.backingOff()) {
      return null;
    }
    try {
      return connector.link();
    } catch (RuntimeException failed) {
      availability.failed();
      return null;
    }
  }

  /**
   * Runs the tokens script (after counting the request on Redis Cluster, where the namespace's
   * counter lives on another node) with the window time appended to {@code args}; null after a
   * failure, which is counted.
   */
  @Nullable List<Object> ask(Connector.Link link, String[] keys, String[] args) {
    List<Object> answer;
    try {
      String[] counter = limiterKeys;
      if (counter != null && connector.cluster()) {
        answer = Scripts.run(link.commands(), requestTimeout, Scripts.TOKENS,
            ScriptOutputType.MULTI, counter,
            "l", limit, windowTime());
        if ((Long) answer.get(0) != 0) {
          availability.succeeded();
          return answer;
        }
      }
      String[] timed = Arrays.copyOf(args, args.length + 1);
      timed[args.length] = windowTime();
      answer = Scripts.run(link.commands(), requestTimeout, Scripts.TOKENS,
          ScriptOutputType.MULTI, keys, timed);
    } catch (RuntimeException failure) {
      availability.failed();
      return null;
    }
    availability.succeeded();
    return answer;
  }

  /**
   * Runs a script as it is, counting the outcome; null after a failure. For the calls that need
   * neither the request limit nor an appended time.
   */
  <T> @Nullable T run(Connector.Link link, Scripts.Script script, ScriptOutputType type, String[] keys,
      String... args) {
    T answer;
    try {
      answer = Scripts.run(link.commands(), requestTimeout, script, type, keys, args);
    } catch (RuntimeException failure) {
      availability.failed();
      return null;
    }
    availability.succeeded();
    return answer;
  }

  /** Removes a sorted set's member, counting the outcome; false when it was not there or failed. */
  boolean remove(Connector.Link link, String key, String member) {
    try {
      boolean removed = Connector.await(link.commands().zrem(key, member), requestTimeout) > 0;
      availability.succeeded();
      return removed;
    } catch (RuntimeException failure) {
      availability.failed();
      return false;
    }
  }

  /** The script's time argument: the window clock's microseconds, or empty for the server's. */
  String windowTime() {
    TimeSource time = windowClock;
    if (time == null) {
      return "";
    }
    Instant now = time.wallTime();
    return Long.toString(now.getEpochSecond() * 1_000_000L + now.getNano() / 1000);
  }
}
