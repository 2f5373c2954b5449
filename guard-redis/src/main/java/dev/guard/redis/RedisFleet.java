package dev.guard.redis;

import dev.guard.api.internal.Threads;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TimeSource;
import dev.guard.spi.TokenService;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One engine's place in a fleet: every instance sharing a namespace through Redis announces
 * itself with a heartbeat and publishes its per-second figures there, and any of them reads the
 * whole fleet back ({@link #view()}): its instances, each resource's figures summed over the
 * fleet and per instance, and which instances disagree about the rules in force.
 *
 * <pre>{@code
 * RedisFleet fleet = RedisFleet.builder(engine, "redis://redis:6379", "shop").build().start();
 * RedisFleet.View view = fleet.view();   // or GuardDashboard.builder(engine).fleet(fleet)
 * ...
 * fleet.close();                          // leaves the fleet at once
 * }</pre>
 *
 * <p>What is published and when (docs/BEHAVIOUR.md, "The fleet"): once per heartbeat (default 1
 * s), on the fleet's own daemon thread, the instance stores its heartbeat (id, name, host, pid,
 * guard version, a digest of the rule set in force, the revision that applied it and when) and
 * one entry per second of the engine's metrics history that closed since the last heartbeat
 * (pass, refused, success, exception, RT sum, concurrency per resource with calls in that
 * second). Each instance keeps at most {@link Builder#seconds} entries (default 60) of at most 64
 * KiB each, in two keys of its own that share one hash slot and expire {@link Builder#expiry}
 * (default 10 s) after its last heartbeat; the namespace's registry of instances is a sorted set
 * trimmed at every heartbeat. Nothing runs on the call path, and the thread wakes once per
 * heartbeat whether the engine is busy or idle.
 *
 * <p>Whatever another instance stored is read as data and checked: an entry that does not parse
 * or is too large is left out and counted ({@link View#skipped()}); nothing read is ever run. A
 * Redis that is away makes the heartbeat wait for the next one, and {@link #view()} answer a view
 * with its {@link View#problem()}; nothing is thrown to the application. Thread-safe.
 */
public final class RedisFleet implements AutoCloseable {

  /** The longest value of a heartbeat field; a longer one is cut (writer) or refused (reader). */
  static final int MAX_FIELD_CHARS = 1024;
  /** The most instances one view lists (the most recently seen first). */
  static final int MAX_INSTANCES = 1000;

  private final GuardEngine engine;
  private final Connector connector;
  private final boolean ownsConnection;
  private final Runnable detach;
  private final Duration requestTimeout;
  private final String namespace;
  private final String id;
  private final long heartbeatNanos;
  private final TimeSource clock;
  private final String registryKey;
  private final String[] ownKeys;
  private final AtomicLong leftOut = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final FleetHeartbeat heartbeat; // guarded by "this"
  private final FleetReader reader;
  private final Object lifecycle = new Object();
  private @Nullable Thread thread;
  private volatile boolean closed;

  private RedisFleet(Builder b) {
    this.engine = b.engine;
    this.namespace = b.namespace;
    this.id = b.instanceId != null ? b.instanceId : defaultId(b.engine);
    String name = b.name != null ? b.name : ProcessHandle.current().pid() + "";
    this.heartbeatNanos = b.heartbeat.toNanos();
    long expiryMs = b.expiry.toMillis();
    this.clock = b.clock;
    this.registryKey = "guard-fleet:{" + namespace + "}";
    String own = "guard-fleet:{" + namespace + ":" + id + "}";
    this.ownKeys = new String[] {own + ":h", own + ":s"};
    this.heartbeat = new FleetHeartbeat(engine, id, name, Math.max(1, b.heartbeat.toMillis()),
        expiryMs, b.seconds, b.wallClock, registryKey, ownKeys, leftOut, failures);
    this.reader = new FleetReader(namespace, id, expiryMs, b.seconds, b.wallClock, registryKey,
        new AtomicLong(), failures);
    this.requestTimeout = b.requestTimeout;
    RedisConnection shared = b.connection;
    this.ownsConnection = shared == null;
    this.connector = shared != null ? shared.connector()
        : RedisConnection.own(b.uris, b.cluster, b.requestTimeout, b.requestTimeout, b.heartbeat,
            b.clock, "guard-fleet").connector();
    this.detach = connector.attach(failures::incrementAndGet, () -> 0);
    if (ownsConnection) {
      connector.begin();
    }
  }

  /** The token service's instance id when it is a {@link RedisTokenService}, else a new UUID. */
  private static String defaultId(GuardEngine engine) {
    TokenService tokens = engine.tokenService().orElse(null);
    if (tokens instanceof RedisTokenService redis && InstanceIds.valid(redis.instanceId())) {
      return redis.instanceId();
    }
    return UUID.randomUUID().toString();
  }

  /**
   * Starts configuring an engine's place in a fleet.
   *
   * @param engine the engine whose figures and rules are published
   * @param uri the server, e.g. {@code redis://localhost:6379}; for {@link Builder#cluster()} one
   *     or more seed nodes separated by commas
   * @param namespace the fleet's namespace (the token service's, usually); not blank, without
   *     {@code '{'}, {@code '}'} or {@code ':'}
   * @return a builder
   * @throws IllegalArgumentException if the namespace or the uri is invalid
   */
  public static Builder builder(GuardEngine engine, String uri, String namespace) {
    return new Builder(engine, uri, namespace);
  }

  /**
   * Starts configuring an engine's place in a fleet on a connection it shares with the
   * instance's other Redis users; closing the fleet leaves the connection open. {@link
   * Builder#cluster()} is the connection's setting.
   *
   * <pre>{@code
   * RedisConnection redis = RedisConnection.of("redis://redis:6379");
   * RedisFleet fleet = RedisFleet.builder(engine, redis, "shop").build();
   * }</pre>
   *
   * @param engine the engine whose figures and rules are published
   * @param connection the shared connection
   * @param namespace the fleet's namespace (the token service's, usually); not blank, without
   *     {@code '{'}, {@code '}'} or {@code ':'}
   * @return a builder
   * @throws IllegalArgumentException if the namespace is invalid
   */
  public static Builder builder(GuardEngine engine, RedisConnection connection,
      String namespace) {
    Objects.requireNonNull(connection, "connection");
    Builder b = new Builder(engine, null, namespace);
    b.connection = connection;
    return b;
  }

  /**
   * Starts the heartbeat: a daemon thread ({@code guard-redis fleet <namespace>}) publishes at
   * once, then once per heartbeat on the builder's clock, until {@link #close()}.
   *
   * @return this fleet
   * @throws IllegalStateException if it was started already or is closed
   */
  public RedisFleet start() {
    synchronized (lifecycle) {
      if (closed || thread != null) {
        throw new IllegalStateException("the fleet of " + id + " is "
            + (closed ? "closed" : "started already"));
      }
      Thread beat = Threads.make(engine.threads(), "guard-redis fleet " + namespace, this::beat);
      thread = beat;
      beat.start();
    }
    return this;
  }

  /**
   * This instance's id in the fleet.
   *
   * @return the id
   */
  public String instanceId() {
    return id;
  }

  /**
   * Waits until the connection to Redis is up, at most {@code timeout}, and tells whether it is;
   * optional (a heartbeat without a connection waits for the next one).
   *
   * @param timeout the longest wait, real time; zero or positive
   * @return whether the fleet is connected (false once closed)
   * @throws IllegalArgumentException if the timeout is negative
   */
  public boolean awaitConnected(Duration timeout) {
    return connector.awaitConnected(timeout) && !closed;
  }

  private void beat() {
    try {
      while (!closed) {
        try {
          publish();
        } catch (RuntimeException failed) { // the engine or the client failed: beat again later
          failures.incrementAndGet();
        }
        clock.backgroundSleep(heartbeatNanos);
      }
    } catch (InterruptedException closing) {
      // close() ends the heartbeat
    }
  }

  /**
   * Publishes one heartbeat and the seconds that closed since the last one; what a started fleet
   * does once per heartbeat.
   *
   * @return whether Redis took it
   */
  synchronized boolean publish() {
    if (closed) {
      return false;
    }
    Connector.Link link = link();
    return link != null && heartbeat.publish(link, requestTimeout);
  }

  /**
   * A digest of the rule set in force: the first 16 hex digits of the SHA-256 of its JSON rule
   * document, so equal sets have equal digests on every instance.
   */
  static String digest(RuleSet rules) {
    return FleetHeartbeat.digest(rules);
  }

  /**
   * Reads the fleet: the instances seen within the expiry, each resource's figures over the last
   * {@link Builder#seconds} seconds summed over the fleet and per instance, and whether the
   * instances agree about the rules in force. Several round trips (one for the registry, one per
   * instance), on the caller's thread; never throws for what Redis holds or for Redis being
   * away.
   *
   * @return the view; when Redis cannot be read, an empty one with its {@link View#problem()}
   */
  public View view() {
    Connector.Link link = closed ? null : link();
    if (link == null) {
      return View.unavailable(closed ? "the fleet is closed" : "Redis is not reachable yet", id,
          eviction());
    }
    return reader.read(link, requestTimeout, this::eviction);
  }

  /** Whether the fleet's Redis may evict guard's keys, with the token service's restores. */
  private Eviction eviction() {
    Eviction read = closed ? Eviction.unknown("the fleet is closed") : connector.eviction();
    TokenService tokens = engine.tokenService().orElse(null);
    return tokens instanceof RedisTokenService redis
        ? read.withRestoredStates(redis.restoredStates()) : read;
  }

  /**
   * Leaves the fleet and closes the connection: stops the heartbeat (waits for one under way),
   * then removes this instance's keys and registry entry, so other instances stop listing it at
   * once (best effort: keys Redis did not take expire after the expiry). Idempotent.
   */
  @Override
  public void close() {
    Thread beat;
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      closed = true;
      beat = thread;
    }
    boolean interrupted = false;
    if (beat != null && beat != Thread.currentThread()) {
      beat.interrupt();
      try {
        beat.join();
      } catch (InterruptedException stop) {
        interrupted = true;
      }
    }
    synchronized (this) {
      Connector.Link link = link();
      if (link != null) {
        try {
          Scripts.run(link.commands(), requestTimeout, Scripts.FLEET_LEAVE,
              ScriptOutputType.INTEGER, new String[] {registryKey}, id);
          Scripts.run(link.commands(), requestTimeout, Scripts.FLEET_LEAVE,
              ScriptOutputType.INTEGER, ownKeys);
        } catch (RuntimeException unreachable) {
          failures.incrementAndGet();
        }
      }
    }
    detach.run();
    if (ownsConnection) {
      connector.close();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Where the fleet's data lives (no credentials). */
  @Override
  public String toString() {
    return "RedisFleet[" + (connector.cluster() ? "cluster " : "") + connector.servers()
        + ", namespace=" + namespace + ", instance=" + id + "]";
  }

  /** How many heartbeats or reads failed, for tests and diagnostics. */
  long failures() {
    return failures.get();
  }

  /** How many resources were left out of entries that would have been too large. */
  long leftOut() {
    return leftOut.get();
  }

  /** The keys of this instance's own data: the heartbeat hash and the seconds list. */
  List<String> ownKeys() {
    return List.of(ownKeys);
  }

  /** The namespace's registry of instances. */
  String registryKey() {
    return registryKey;
  }

  private Connector.@Nullable Link link() {
    try {
      return connector.link();
    } catch (RuntimeException notConnected) {
      failures.incrementAndGet();
      return null;
    }
  }

  /**
   * The fleet as one instance read it.
   *
   * @param timeMs when it was read, ms since the epoch (the Redis server's clock unless a wall
   *     clock was set)
   * @param self the reading instance's id
   * @param instances the instances seen within the expiry (at most 1000, the most recently seen),
   *     by id
   * @param resources each resource's figures, by name
   * @param rulesAgree whether every alive instance applies the same rule set
   * @param skipped entries and heartbeats left out since this fleet was built because they were
   *     malformed, too large, or of another type
   * @param problem why the fleet could not be read, or null
   * @param eviction whether the fleet's Redis may evict guard's keys, read with the view ({@link
   *     RedisTokenService#eviction()}; the restored quota states are those of the engine's
   *     token service when it is a {@link RedisTokenService})
   */
  public record View(long timeMs, String self, List<Instance> instances,
      List<Resource> resources, boolean rulesAgree, long skipped, @Nullable String problem,
      Eviction eviction) {

    /**
     * Copies the lists.
     *
     * @param timeMs when it was read
     * @param self the reading instance's id
     * @param instances the instances
     * @param resources the resources
     * @param rulesAgree whether every alive instance applies the same rule set
     * @param skipped entries and heartbeats left out
     * @param problem why the fleet could not be read, or null
     * @param eviction whether Redis may evict guard's keys
     */
    public View {
      instances = List.copyOf(instances);
      resources = List.copyOf(resources);
      Objects.requireNonNull(eviction, "eviction");
    }

    static View unavailable(String problem, String self, Eviction eviction) {
      return new View(0, self, List.of(), List.of(), true, 0, problem, eviction);
    }

    static View of(long nowMs, String self, List<Instance> instances,
        Map<String, Map<Long, FleetCodec.Entry>> figures, long skipped, Eviction eviction) {
      Map<String, Map<Long, Figures>> fleetSeconds = new TreeMap<>();
      Map<String, Map<String, Figures>> byInstance = new TreeMap<>();
      figures.forEach((instance, entries) -> entries.values().forEach(entry -> {
        for (FleetCodec.Line line : entry.lines()) {
          Figures one = new Figures(line.pass(), line.refused(), line.success(),
              line.exception(), line.rtSumMs());
          fleetSeconds.computeIfAbsent(line.resource(), r -> new TreeMap<>())
              .merge(entry.epochSecond(), one, Figures::plus);
          byInstance.computeIfAbsent(line.resource(), r -> new TreeMap<>())
              .merge(instance, one, Figures::plus);
        }
      }));
      List<Resource> resources = new ArrayList<>();
      fleetSeconds.forEach((name, secondsOf) -> {
        List<Second> list = new ArrayList<>();
        Figures total = Figures.NONE;
        for (Map.Entry<Long, Figures> second : secondsOf.entrySet()) {
          list.add(new Second(second.getKey(), second.getValue()));
          total = total.plus(second.getValue());
        }
        resources.add(new Resource(name, total, list,
            byInstance.getOrDefault(name, Map.of())));
      });
      boolean agree = instances.stream().filter(Instance::alive).allMatch(Instance::agrees);
      return new View(nowMs, self, instances, resources, agree, skipped, null, eviction);
    }
  }

  /**
   * One instance of the fleet, from its last heartbeat.
   *
   * @param id its instance id
   * @param name its name (the process id unless {@link Builder#name} set one)
   * @param host its host name
   * @param pid its process id
   * @param guardVersion the guard version it runs
   * @param alive whether it sent a heartbeat within its last three heartbeat periods
   * @param lastSeenMs its last heartbeat, ms since the epoch
   * @param startedMs its first heartbeat, ms since the epoch
   * @param rules the digest of the rule set it applies (the first 16 hex digits of the SHA-256 of
   *     its JSON rule document)
   * @param ruleRevision the number of its latest rule revision (its own count), 0 when none
   * @param rulesAppliedAtMs when it applied that revision, ms since the epoch by its clock, 0
   *     when none
   * @param ruleSource who applied that revision (a rule source's name), empty when none
   * @param agrees whether its rule set is the one most alive instances apply
   * @param self whether it is the instance that read the view
   */
  public record Instance(String id, String name, String host, long pid, String guardVersion,
      boolean alive, long lastSeenMs, long startedMs, String rules, long ruleRevision,
      long rulesAppliedAtMs, String ruleSource, boolean agrees, boolean self) {

    Instance disagreeing() {
      return new Instance(id, name, host, pid, guardVersion, alive, lastSeenMs, startedMs, rules,
          ruleRevision, rulesAppliedAtMs, ruleSource, false, self);
    }
  }

  /**
   * One resource over the last seconds the fleet keeps.
   *
   * @param name the resource
   * @param total the fleet's figures summed over those seconds
   * @param seconds the fleet's figures per second, oldest first (seconds without calls left out)
   * @param byInstance each instance's figures summed over those seconds, by instance id
   */
  public record Resource(String name, Figures total, List<Second> seconds,
      Map<String, Figures> byInstance) {

    /**
     * Copies the collections.
     *
     * @param name the resource
     * @param total the fleet's figures
     * @param seconds the fleet's figures per second
     * @param byInstance each instance's figures
     */
    public Resource {
      seconds = List.copyOf(seconds);
      byInstance = Collections.unmodifiableMap(new TreeMap<>(byInstance));
    }
  }

  /**
   * One second of a resource, summed over the fleet.
   *
   * @param epochSecond the second, since the epoch
   * @param figures what the fleet did in it
   */
  public record Second(long epochSecond, Figures figures) {}

  /**
   * Counts of permits, as in the engine's metrics history.
   *
   * @param pass admitted
   * @param refused refused, all kinds together
   * @param success completed
   * @param exception completed with a traced business error
   * @param rtSumMs the sum of the completed calls' response times, ms
   */
  public record Figures(long pass, long refused, long success, long exception, long rtSumMs) {

    static final Figures NONE = new Figures(0, 0, 0, 0, 0);

    /**
     * The average response time.
     *
     * @return {@code rtSumMs / success}, 0 when nothing completed
     */
    public double averageRtMs() {
      return success == 0 ? 0.0 : (double) rtSumMs / success;
    }

    Figures plus(Figures other) {
      return new Figures(pass + other.pass, refused + other.refused, success + other.success,
          exception + other.exception, rtSumMs + other.rtSumMs);
    }
  }

  /** Settings of a {@link RedisFleet}; every option may be set once. */
  public static final class Builder {
    private final GuardEngine engine;
    private final List<String> uris = new ArrayList<>();
    private final String namespace;
    private boolean cluster;
    private @Nullable String instanceId;
    private @Nullable String name;
    private Duration heartbeat = Duration.ofSeconds(1);
    private Duration expiry = Duration.ofSeconds(10);
    private int seconds = 60;
    private Duration requestTimeout = Duration.ofSeconds(1);
    private TimeSource clock = GuardEngine.systemTime();
    private @Nullable TimeSource wallClock;
    private final Set<String> set = new HashSet<>();

    private @Nullable RedisConnection connection;

    private Builder(GuardEngine engine, @Nullable String uri, String namespace) {
      this.engine = Objects.requireNonNull(engine, "engine");
      if (uri != null) {
        uris.addAll(Servers.split(uri));
      }
      this.namespace = Connector.namespace(namespace);
    }

    private void once(String option) {
      if (!set.add(option)) {
        throw new IllegalStateException(option + " is already set");
      }
    }

    /**
     * Connects to a Redis Cluster: the uri names one or more seed nodes. Each instance's two
     * keys share one hash slot; the registry lives in the namespace's slot.
     *
     * @return this builder
     * @throws IllegalStateException on a builder for a shared {@link RedisConnection}
     */
    public Builder cluster() {
      if (connection != null) {
        throw new IllegalStateException("cluster() is the shared RedisConnection's setting; set "
            + "it on RedisConnection.builder");
      }
      once("cluster");
      this.cluster = true;
      return this;
    }

    /**
     * Sets this instance's id (default: the engine's {@link RedisTokenService}'s, else a random
     * UUID).
     *
     * @param id 1 to 128 letters, digits or {@code . _ : @ -}
     * @return this builder
     */
    public Builder instanceId(String id) {
      InstanceIds.check(id);
      once("instanceId");
      this.instanceId = id;
      return this;
    }

    /**
     * Sets the name the fleet shows for this instance (default: its process id).
     *
     * @param name not blank, at most 1024 characters
     * @return this builder
     */
    public Builder name(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank() || name.length() > MAX_FIELD_CHARS) {
        throw new IllegalArgumentException("name must not be blank and at most "
            + MAX_FIELD_CHARS + " characters, was '" + name + "'");
      }
      once("name");
      this.name = name;
      return this;
    }

    /**
     * Sets how often the instance publishes (default 1 s). An instance is shown alive while its
     * last heartbeat is at most three of its periods old.
     *
     * @param period from 1 ms to a third of the expiry
     * @return this builder
     */
    public Builder heartbeat(Duration period) {
      once("heartbeat");
      this.heartbeat = positive("heartbeat", period);
      return this;
    }

    /**
     * Sets how long after its last heartbeat an instance is still listed; its keys expire then
     * (default 10 s).
     *
     * @param expiry at least three heartbeats
     * @return this builder
     */
    public Builder expiry(Duration expiry) {
      once("expiry");
      this.expiry = positive("expiry", expiry);
      return this;
    }

    /**
     * Sets how many recent seconds each instance keeps in Redis and a view sums (default 60).
     *
     * @param seconds from 1 to 3600
     * @return this builder
     */
    public Builder seconds(int seconds) {
      if (seconds < 1 || seconds > 3600) {
        throw new IllegalArgumentException("seconds must be from 1 to 3600, was " + seconds);
      }
      once("seconds");
      this.seconds = seconds;
      return this;
    }

    /**
     * Sets how long one Redis command of the fleet may take (default 1 s); the heartbeat and the
     * reads are off the call path.
     *
     * @param timeout positive
     * @return this builder
     */
    public Builder requestTimeout(Duration timeout) {
      once("requestTimeout");
      this.requestTimeout = positive("requestTimeout", timeout);
      return this;
    }

    /**
     * Sets the time source the heartbeat waits on (default {@link GuardEngine#systemTime()}); a
     * {@code ManualClock} makes the heartbeat beat when the test advances it by a period.
     *
     * @param timeSource the time source
     * @return this builder
     */
    public Builder clock(TimeSource timeSource) {
      once("clock");
      this.clock = Objects.requireNonNull(timeSource, "clock");
      return this;
    }

    /**
     * Stamps heartbeats, places seconds and judges ages on this time source's wall time instead
     * of the Redis server's clock. Every instance of the fleet must then use clocks that agree
     * (one {@code ManualClock} for the engines of a test).
     *
     * @param timeSource the time source
     * @return this builder
     */
    public Builder wallClock(TimeSource timeSource) {
      once("wallClock");
      this.wallClock = Objects.requireNonNull(timeSource, "wallClock");
      return this;
    }

    /**
     * Creates the fleet and starts connecting in the background; {@link RedisFleet#start()}
     * starts the heartbeat.
     *
     * @return the fleet, not yet publishing
     * @throws IllegalArgumentException if several servers are given without {@link #cluster()},
     *     or the expiry is shorter than three heartbeats
     */
    public RedisFleet build() {
      if (uris.size() > 1 && !cluster) {
        throw new IllegalArgumentException(
            "uri must name one server unless cluster() is set, was "
            + Servers.redact(String.join(",", uris)));
      }
      if (expiry.compareTo(heartbeat.multipliedBy(3)) < 0) {
        throw new IllegalArgumentException("expiry must be at least three heartbeats ("
            + heartbeat.multipliedBy(3) + "), was " + expiry);
      }
      return new RedisFleet(this);
    }

    private static Duration positive(String field, Duration value) {
      Objects.requireNonNull(value, field);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(field + " must be positive, was " + value);
      }
      return value;
    }
  }
}
