package dev.guard.engine;

import dev.guard.api.TimeSource;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.ClusterThreshold;
import dev.guard.api.rule.FlowRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
 * InMemoryTokenService service = new InMemoryTokenService(TimeSource.system());
 * GuardEngine a = GuardEngine.builder().tokenService(service.connect("shop")).build();
 * GuardEngine b = GuardEngine.builder().tokenService(service.connect("shop")).build();
 * }</pre>
 *
 * <p>Decisions (docs/BEHAVIOUR.md, "Cluster flow control"): a flow id's window holds the passes of
 * the last {@code window} in {@code buckets} buckets; it admits {@code threshold × window} permits
 * ({@code threshold = count}, times the connected instances for {@link
 * ClusterThreshold#PER_INSTANCE}). A prioritized request that does not fit may take permits from
 * the next bucket when the passes that then slide out make room, and waits until that bucket
 * starts. Each namespace answers at most {@code maxRequestsPerSecond} requests per second (more are
 * answered {@link TokenResult#TOO_MANY_REQUESTS}, so the callers fall back).
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
    public TokenResult requestToken(FlowRule rule, int permits, boolean prioritized) {
      synchronized (InMemoryTokenService.this) {
        TokenResult refused = admit(rule, permits);
        if (refused != null) {
          return refused;
        }
        ClusterMode mode = Objects.requireNonNull(rule.cluster());
        long now = clock.millis();
        return namespace.window(mode).decide(now, threshold(rule), permits, prioritized);
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
    public TokenResult acquireConcurrency(FlowRule rule, int permits) {
      synchronized (InMemoryTokenService.this) {
        TokenResult refused = admit(rule, permits);
        if (refused != null) {
          return refused;
        }
        ClusterMode mode = Objects.requireNonNull(rule.cluster());
        long now = clock.millis();
        expireLeases(now);
        String key = mode.flowId();
        long held = namespace.inFlight.getOrDefault(key, 0L);
        if (held + permits > threshold(rule)) {
          return TokenResult.BLOCKED;
        }
        namespace.inFlight.put(key, held + permits);
        long id = nextTokenId++;
        leases.put(id, new Lease(this, key, permits, now + mode.leaseTime().toMillis()));
        return TokenResult.token(id);
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
    private @Nullable TokenResult admit(FlowRule rule, int permits) {
      if (closed || rule.cluster() == null || permits <= 0) {
        return TokenResult.FAILED;
      }
      if (!namespace.limiter.tryCount(clock.millis(), maxRequestsPerSecond)) {
        return TokenResult.TOO_MANY_REQUESTS;
      }
      return null;
    }

    private double threshold(FlowRule rule) {
      ClusterMode mode = Objects.requireNonNull(rule.cluster());
      return mode.threshold() == ClusterThreshold.GLOBAL
          ? rule.count()
          : rule.count() * Math.max(1, namespace.connected);
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
    final Map<String, FlowWindow> windows = new HashMap<>();
    final Map<String, Long> inFlight = new HashMap<>();
    final RequestLimiter limiter = new RequestLimiter();
    int connected;

    Namespace(String name) {
      this.name = name;
    }

    /** The flow id's window, rebuilt (empty) when the rule's window geometry changed. */
    FlowWindow window(ClusterMode mode) {
      FlowWindow window = windows.get(mode.flowId());
      if (window == null || window.buckets != mode.buckets() || window.bucketMs != mode.bucketMs()) {
        window = new FlowWindow(mode.buckets(), mode.bucketMs());
        windows.put(mode.flowId(), window);
      }
      return window;
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

  /**
   * The passes of one flow id in a bucketed sliding window, and the permits prioritized requests
   * took from the next bucket (counted as its passes when it starts).
   */
  static final class FlowWindow {
    final int buckets;
    final long bucketMs;
    private final long[] start;
    private final long[] pass;
    private long borrowedFor = Long.MIN_VALUE;
    private long borrowed;

    FlowWindow(int buckets, long bucketMs) {
      this.buckets = buckets;
      this.bucketMs = bucketMs;
      this.start = new long[buckets];
      this.pass = new long[buckets];
      Arrays.fill(start, Long.MIN_VALUE);
    }

    TokenResult decide(long nowMs, double threshold, int permits, boolean prioritized) {
      long current = Math.floorDiv(nowMs, bucketMs);
      settle(current);
      double capacity = threshold * buckets * bucketMs / 1000.0;
      long passed = 0;
      for (long b = current - buckets + 1; b <= current; b++) {
        passed += passOf(b);
      }
      double remaining = capacity - passed - permits;
      if (remaining >= 0) {
        bucket(current);
        pass[slot(current)] += permits;
        return TokenResult.ok((long) Math.floor(remaining));
      }
      if (prioritized) {
        long sliding = passOf(current - buckets + 1);
        long pending = borrowedFor == current + 1 ? borrowed : 0;
        if (passed - sliding + pending + permits <= capacity) {
          borrowedFor = current + 1;
          borrowed = pending + permits;
          return TokenResult.shouldWait((current + 1) * bucketMs - nowMs);
        }
      }
      return TokenResult.BLOCKED;
    }

    /** Counts permits borrowed for a bucket that has started as that bucket's passes. */
    private void settle(long current) {
      if (borrowed > 0 && borrowedFor <= current) {
        if (borrowedFor > current - buckets) {
          bucket(borrowedFor);
          pass[slot(borrowedFor)] += borrowed;
        }
        borrowed = 0;
        borrowedFor = Long.MIN_VALUE;
      }
    }

    private long passOf(long b) {
      int s = slot(b);
      return start[s] == b ? pass[s] : 0;
    }

    private void bucket(long b) {
      int s = slot(b);
      if (start[s] != b) {
        start[s] = b;
        pass[s] = 0;
      }
    }

    private int slot(long b) {
      return (int) Math.floorMod(b, (long) buckets);
    }
  }
}
