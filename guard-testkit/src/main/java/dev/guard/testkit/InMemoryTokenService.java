package dev.guard.testkit;

import dev.guard.spi.TokenService;
import dev.guard.spi.TimeSource;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Quota;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * A token service held in memory and shared by the engines of one JVM: the reference decision
 * logic of cluster flow control, on a {@link TimeSource} (tests pass the engines' manual clock).
 * Every engine {@linkplain #connect connects} to it in a namespace; per-instance thresholds count
 * the clients connected to the namespace.
 *
 * <pre>{@code
 * InMemoryTokenService service = new InMemoryTokenService(GuardEngine.systemTime());
 * GuardEngine a = GuardEngine.builder().tokenService(service.connect("shop")).build();
 * GuardEngine b = GuardEngine.builder().tokenService(service.connect("shop")).build();
 * }</pre>
 *
 * <p>Decisions (docs/BEHAVIOUR.md, "Cluster flow control"): a flow id's window holds the passes of
 * the last {@code window} in {@code buckets} buckets (one window per geometry that the rules of
 * the flow id use, each counting every pass: "the rolling-deploy rule"); it admits {@code
 * threshold × window} permits
 * ({@code threshold = count}, times the connected instances for {@link
 * ClusterMode.Threshold#PER_INSTANCE}). A prioritized request that does not fit may take permits from
 * the next bucket when the passes that then slide out make room, and waits until that bucket
 * starts. Each namespace answers at most {@code maxRequestsPerSecond} requests per second (more are
 * answered {@link TokenService.Result#TOO_MANY_REQUESTS}, so the callers fall back). A grant given back
 * ({@link TokenService#giveBack}) leaves the bucket that counted it.
 *
 * <p>Cluster per-value rules ({@link TokenService#requestValueToken}): per flow id, each value
 * ({@link String#valueOf}) has the rule's token bucket and one per quota, with the engine's
 * arithmetic (docs/BEHAVIOUR.md, "Cluster per-value limits"); a request is granted only when every
 * bucket holds its permits. A flow id remembers at most the rule's {@code maxValues} values, the
 * least recently used forgotten first, and forgets a value as soon as all its buckets would be
 * full again (a forgotten value starts with full buckets, so forgetting an idle one changes no
 * decision).
 *
 * <p>The quotas of cluster flow rules ({@link TokenService#requestQuota}) are the same buckets on
 * one constant key per flow id: one bucket per quota, granted only when every one holds the
 * permits.
 *
 * <p>Thread-safe: every decision is taken under one lock.
 */
public final class InMemoryTokenService {

  /** The default request limit of a namespace: 30000 requests per second. */
  public static final int DEFAULT_MAX_REQUESTS_PER_SECOND = 30_000;

  private static final int LIMITER_BUCKETS = 10;
  private static final long LIMITER_BUCKET_MS = 100;

  private final TimeSource clock;
  private final int maxRequestsPerSecond;
  private final Map<String, Namespace> namespaces = new HashMap<>();
  private final Map<Long, Lease> leases = new HashMap<>();
  private long nextTokenId = 1;

  /**
   * Creates a service with the default request limit per namespace.
   *
   * @param clock the time of every window
   */
  public InMemoryTokenService(TimeSource clock) {
    this(clock, DEFAULT_MAX_REQUESTS_PER_SECOND);
  }

  /**
   * Creates a service.
   *
   * @param clock the time of every window
   * @param maxRequestsPerSecond the most requests a namespace is answered per second; {@code > 0}
   * @throws IllegalArgumentException if {@code maxRequestsPerSecond <= 0}
   */
  public InMemoryTokenService(TimeSource clock, int maxRequestsPerSecond) {
    this.clock = Objects.requireNonNull(clock, "clock");
    if (maxRequestsPerSecond <= 0) {
      throw new IllegalArgumentException(
          "maxRequestsPerSecond must be > 0, was " + maxRequestsPerSecond);
    }
    this.maxRequestsPerSecond = maxRequestsPerSecond;
  }

  /**
   * Connects an instance in a namespace. Flow ids are shared within a namespace only.
   *
   * @param namespace the namespace; not blank
   * @return the instance's token service; {@linkplain Client#close() closing} it disconnects the
   *     instance and gives back its concurrency tokens
   */
  public synchronized Client connect(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    if (namespace.isBlank()) {
      throw new IllegalArgumentException("namespace must not be blank, was '" + namespace + "'");
    }
    Namespace ns = namespaces.computeIfAbsent(namespace.strip(), Namespace::new);
    ns.connected++;
    return new Client(ns);
  }

  /**
   * How many instances are connected to a namespace.
   *
   * @param namespace the namespace
   * @return the connected clients
   */
  public synchronized int connected(String namespace) {
    Namespace ns = namespaces.get(namespace);
    return ns == null ? 0 : ns.connected;
  }

  /** One instance's connection to the service: the token service its engine uses. */
  public final class Client implements TokenService, AutoCloseable {

    private final Namespace namespace;
    private boolean closed;

    private Client(Namespace namespace) {
      this.namespace = namespace;
    }

    /**
     * The namespace this client is connected to.
     *
     * @return the namespace
     */
    public String namespace() {
      return namespace.name;
    }

    @Override
    public TokenService.Result requestToken(FlowRule rule, int permits, boolean prioritized) {
      synchronized (InMemoryTokenService.this) {
        TokenService.Result refused = admit(rule, permits);
        if (refused != null) {
          return refused;
        }
        ClusterMode mode = Objects.requireNonNull(rule.cluster());
        return namespace.windows.computeIfAbsent(mode.flowId(), id -> new FlowWindows())
            .decide(clock.millis(), mode.bucketMs(), mode.buckets(), threshold(rule), permits,
                prioritized);
      }
    }

    /** Takes a grant's permits out of the buckets that counted them (exact). */
    @Override
    public void giveBack(FlowRule rule, int permits, TokenService.Result grant) {
      ClusterMode mode = rule.cluster();
      if (mode == null || permits <= 0 || grant.tokenId() == 0) {
        return;
      }
      synchronized (InMemoryTokenService.this) {
        FlowWindows windows = namespace.windows.get(mode.flowId());
        if (!closed && windows != null) {
          windows.giveBack(clock.millis(), grant.tokenId(), permits);
        }
      }
    }

    @Override
    public TokenService.Result requestValueToken(PerValueRule rule, Object value, int permits) {
      synchronized (InMemoryTokenService.this) {
        ClusterMode mode = rule.cluster();
        if (closed || mode == null || permits <= 0) {
          return TokenService.Result.FAILED; // not counted by the namespace's request limit
        }
        return namespace.values.computeIfAbsent(mode.flowId(), id -> new ValueBuckets())
            .request(String.valueOf(value), ValueBuckets.valueBuckets(rule, rule.thresholdOf(value)),
                rule.maxValues(), permits, clock.millis());
      }
    }

    @Override
    public TokenService.Result requestQuota(FlowRule rule, int permits) {
      synchronized (InMemoryTokenService.this) {
        ClusterMode mode = rule.cluster();
        if (closed || mode == null || permits <= 0 || rule.quotas().isEmpty()) {
          return TokenService.Result.FAILED;
        }
        return namespace.quotas.computeIfAbsent(mode.flowId(), id -> new ValueBuckets())
            .request(ValueBuckets.FLOW, ValueBuckets.quotaBuckets(rule.quotas()), 1, permits,
                clock.millis());
      }
    }

    @Override
    public void giveBackQuota(FlowRule rule, int permits) {
      synchronized (InMemoryTokenService.this) {
        ClusterMode mode = rule.cluster();
        ValueBuckets buckets = mode == null ? null : namespace.quotas.get(mode.flowId());
        if (!closed && buckets != null && permits > 0) {
          buckets.giveBack(ValueBuckets.FLOW, permits);
        }
      }
    }

    @Override
    public void giveBackValue(PerValueRule rule, Object value, int permits) {
      synchronized (InMemoryTokenService.this) {
        ClusterMode mode = rule.cluster();
        ValueBuckets buckets = mode == null ? null : namespace.values.get(mode.flowId());
        if (!closed && buckets != null && permits > 0) {
          buckets.giveBack(String.valueOf(value), permits);
        }
      }
    }

    @Override
    public String toString() {
      return "InMemoryTokenService[namespace=" + namespace() + "]";
    }

    /** The clients connected to this client's namespace: all of them share its limits. */
    @Override
    public OptionalInt instances(String flowId) {
      return OptionalInt.of(connected(namespace()));
    }

    @Override
    public TokenService.Result acquireConcurrency(FlowRule rule, int permits) {
      synchronized (InMemoryTokenService.this) {
        TokenService.Result refused = admit(rule, permits);
        if (refused != null) {
          return refused;
        }
        ClusterMode mode = Objects.requireNonNull(rule.cluster());
        long now = clock.millis();
        expireLeases(now);
        String key = mode.flowId();
        long held = namespace.inFlight.getOrDefault(key, 0L);
        if (held + permits > threshold(rule)) {
          return TokenService.Result.REFUSED;
        }
        namespace.inFlight.put(key, held + permits);
        long id = nextTokenId++;
        leases.put(id, new Lease(this, key, permits, now + mode.leaseTime().toMillis()));
        return TokenService.Result.token(id);
      }
    }

    @Override
    public boolean releaseConcurrency(long tokenId) {
      synchronized (InMemoryTokenService.this) {
        Lease lease = leases.get(tokenId);
        if (lease == null || lease.owner != this) {
          return false;
        }
        leases.remove(tokenId);
        lease.giveBack();
        return true;
      }
    }

    /** Disconnects the instance: it stops counting and its concurrency tokens are given back. */
    @Override
    public void close() {
      synchronized (InMemoryTokenService.this) {
        if (closed) {
          return;
        }
        closed = true;
        namespace.connected--;
        for (Iterator<Lease> it = leases.values().iterator(); it.hasNext(); ) {
          Lease lease = it.next();
          if (lease.owner == this) {
            it.remove();
            lease.giveBack();
          }
        }
      }
    }

    /** The refusal of a request that is not decided, or null when it may be. */
    private TokenService.@Nullable Result admit(FlowRule rule, int permits) {
      if (closed || rule.cluster() == null || permits <= 0) {
        return TokenService.Result.FAILED;
      }
      if (!namespace.limiter.tryCount(clock.millis(), maxRequestsPerSecond)) {
        return TokenService.Result.TOO_MANY_REQUESTS;
      }
      return null;
    }

    private double threshold(FlowRule rule) {
      ClusterMode mode = Objects.requireNonNull(rule.cluster());
      return mode.threshold() == ClusterMode.Threshold.GLOBAL
          ? rule.threshold()
          : rule.threshold() * Math.max(1, namespace.connected);
    }
  }

  private void expireLeases(long now) {
    List<Long> expired = new ArrayList<>();
    for (Map.Entry<Long, Lease> e : leases.entrySet()) {
      if (e.getValue().expiresAtMs <= now) {
        expired.add(e.getKey());
      }
    }
    for (Long id : expired) {
      Lease lease = leases.remove(id);
      if (lease != null) {
        lease.giveBack();
      }
    }
  }

  /** A namespace: its windows per flow id, its request limiter and its connected clients. */
  private static final class Namespace {
    final String name;
    final Map<String, FlowWindows> windows = new HashMap<>();
    final Map<String, ValueBuckets> values = new HashMap<>();
    final Map<String, ValueBuckets> quotas = new HashMap<>();
    final Map<String, Long> inFlight = new HashMap<>();
    final RequestLimiter limiter = new RequestLimiter();
    int connected;

    Namespace(String name) {
      this.name = name;
    }
  }

  /** A concurrency token: who holds it, for which flow id, until when. */
  private final class Lease {
    final Client owner;
    final String flowId;
    final long permits;
    final long expiresAtMs;

    Lease(Client owner, String flowId, long permits, long expiresAtMs) {
      this.owner = owner;
      this.flowId = flowId;
      this.permits = permits;
      this.expiresAtMs = expiresAtMs;
    }

    void giveBack() {
      owner.namespace.inFlight.merge(flowId, -permits, Long::sum);
    }
  }

  /**
   * The buckets of one flow id's values, least recently used first. Bucket {@code j} of a value
   * is the rule's own ({@code j = 0}: its threshold plus burst per period) or quota {@code j − 1};
   * {@code refilled[j]} is when it was last refilled (ms), {@code tokens[j]} what it holds.
   */
  private static final class ValueBuckets {
    private final LinkedHashMap<String, Held> byValue = new LinkedHashMap<>(16, 0.75f, true);

    /** One value's buckets. */
    private static final class Held {
      final long[] refilled;
      final long[] tokens;
      final long[] size;
      final long[] rate;
      final long[] period;

      Held(long[] size, long[] rate, long[] period, long now) {
        this.size = size;
        this.rate = rate;
        this.period = period;
        this.refilled = new long[size.length];
        this.tokens = size.clone();
        Arrays.fill(refilled, now);
      }

      /** Whether every bucket would be full at {@code now} (a zero-rate bucket never refills). */
      boolean full(long now) {
        for (int j = 0; j < size.length; j++) {
          long elapsed = now - refilled[j];
          long have = tokens[j];
          if (have < size[j] && (rate[j] == 0 || elapsed <= period[j]
              || have + earned(elapsed, rate[j], period[j], size[j]) < size[j])) {
            return false;
          }
        }
        return true;
      }
    }

    /** The key of a flow rule's quotas: one per flow id. */
    static final String FLOW = "";

    /** A per-value rule's buckets for a value: its own, then one per quota ({rate, period, size}). */
    static long[][] valueBuckets(PerValueRule rule, int threshold) {
      long[][] buckets = new long[3][1 + rule.quotas().size()];
      buckets[0][0] = threshold;
      buckets[1][0] = rule.period().toMillis();
      buckets[2][0] = (long) threshold + rule.burst();
      fill(buckets, 1, rule.quotas());
      return buckets;
    }

    /** A flow rule's buckets: one per quota ({rate, period, size}). */
    static long[][] quotaBuckets(List<Quota> quotas) {
      long[][] buckets = new long[3][quotas.size()];
      fill(buckets, 0, quotas);
      return buckets;
    }

    private static void fill(long[][] buckets, int from, List<Quota> quotas) {
      for (int q = 0; q < quotas.size(); q++) {
        buckets[0][from + q] = quotas.get(q).limit();
        buckets[1][from + q] = quotas.get(q).period().toMillis();
        buckets[2][from + q] = quotas.get(q).limit();
      }
    }

    TokenService.Result request(String value, long[][] buckets, int maxValues, int permits,
        long now) {
      long[] rate = buckets[0];
      long[] period = buckets[1];
      long[] size = buckets[2];
      int n = rate.length;
      forgetIdle(now);
      Held held = byValue.get(value);
      if (held != null && !Arrays.equals(held.size, size)) {
        held = null; // another version of the rule: start over
      }
      long[] after = new long[n];
      long retry = 0;
      boolean never = false;
      for (int j = 0; j < n; j++) {
        if (rate[j] == 0 || permits > size[j]) {
          never = true;
          continue;
        }
        long tokens = held == null ? size[j] : held.tokens[j];
        long refilled = held == null ? now : held.refilled[j];
        long elapsed = now - refilled;
        if (elapsed > period[j]) {
          tokens = Math.min(size[j], tokens + earned(elapsed, rate[j], period[j], size[j]));
        }
        after[j] = tokens - permits;
        if (after[j] < 0) {
          long missing = permits - (held == null ? size[j] : held.tokens[j]);
          long needMs = Math.max(period[j] + 1, (missing * period[j] + rate[j] - 1) / rate[j]);
          retry = Math.max(retry, Math.max(1, refilled + needMs - now));
        }
      }
      if (never) {
        return TokenService.Result.REFUSED;
      }
      if (retry > 0) {
        return TokenService.Result.refused(retry);
      }
      if (held == null) {
        held = new Held(size, rate, period, now);
        byValue.put(value, held);
        while (byValue.size() > maxValues) {
          Iterator<String> eldest = byValue.keySet().iterator();
          eldest.next();
          eldest.remove();
        }
      }
      for (int j = 0; j < n; j++) {
        if (now - held.refilled[j] > period[j]) {
          held.refilled[j] = now;
        }
        held.tokens[j] = after[j];
      }
      return TokenService.Result.ok(after[0]);
    }

    void giveBack(String value, int permits) {
      Held held = byValue.get(value);
      if (held != null) {
        for (int j = 0; j < held.tokens.length; j++) {
          held.tokens[j] = Math.min(held.size[j], held.tokens[j] + permits);
        }
      }
    }

    /**
     * Drops the least recently used values (a few per request) whose every bucket would be full
     * now: they decide as if never seen.
     */
    private void forgetIdle(long now) {
      Iterator<Held> eldest = byValue.values().iterator();
      for (int looked = 0; looked < 4 && eldest.hasNext(); looked++) {
        if (eldest.next().full(now)) {
          eldest.remove();
        }
      }
    }

    /** {@code ⌊elapsed · rate / period⌋}, saturating at {@code size}. */
    static long earned(long elapsed, long rate, long period, long size) {
      long periods = elapsed / period;
      if (periods > size / rate) {
        return size;
      }
      return periods * rate + (elapsed % period) * rate / period;
    }
  }

  /** Requests a namespace was answered in the last second (10 buckets of 100 ms). */
  private static final class RequestLimiter {
    private final long[] start = new long[LIMITER_BUCKETS];
    private final long[] count = new long[LIMITER_BUCKETS];

    RequestLimiter() {
      Arrays.fill(start, Long.MIN_VALUE);
    }

    boolean tryCount(long nowMs, int max) {
      long current = Math.floorDiv(nowMs, LIMITER_BUCKET_MS);
      long sum = 0;
      for (int i = 0; i < LIMITER_BUCKETS; i++) {
        if (start[i] > current - LIMITER_BUCKETS && start[i] <= current) {
          sum += count[i];
        }
      }
      if (sum + 1 > max) {
        return false;
      }
      int slot = (int) Math.floorMod(current, LIMITER_BUCKETS);
      if (start[slot] != current) {
        start[slot] = current;
        count[slot] = 0;
      }
      count[slot]++;
      return true;
    }
  }
}
