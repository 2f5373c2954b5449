package dev.guard.testkit.traffic;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.RuleState;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A simulated downstream dependency on a {@link ManualClock}, for testing concurrency limits: a
 * server that serves {@code capacity} calls at once, each for {@code serviceTime}, queues the
 * calls beyond that in arrival order (so the latency of a call grows with the queue ahead of it),
 * and fails a call when its queue is full (the failure is answered one millisecond later). Calls arrive at a steady rate per second
 * (changing at the times the builder names), and the capacity may change during a run too.
 *
 * <pre>{@code
 * ManualClock clock = new ManualClock();
 * GuardEngine engine = GuardEngine.builder().clock(clock).build();
 * engine.resource("inventory").declare(List.of(AdaptiveConcurrencyRule.of("inventory")));
 *
 * SimulatedDependency.Run run = SimulatedDependency.builder()
 *     .capacity(50).serviceTime(Duration.ofMillis(20)).queue(200)
 *     .load(4000)                                          // calls per second: overload
 *     .capacityFrom(Duration.ofSeconds(20), 25)            // the dependency loses half
 *     .build()
 *     .run(clock, SimulatedDependency.Limiter.of(engine, "inventory"), Duration.ofSeconds(40));
 *
 * run.settledAt(50, 0.10, Duration.ZERO, Duration.ofSeconds(20));   // when the limit found 50
 * run.meanLatencyMs(Duration.ofSeconds(10), Duration.ofSeconds(20)); // next to serviceTime
 * }</pre>
 *
 * <p><b>How a run proceeds.</b> Time moves in steps of one millisecond. In each step, first the
 * calls whose service ends are completed (their limiter permit is released as a success) and
 * queued calls move to free places; then the calls arriving in that millisecond ask the limiter:
 * a refused call is counted and dropped, an admitted one is served at once, queued, or — when the
 * queue is full — failed (its permit released as a failure in the next millisecond). Arrivals are spread evenly
 * (a fractional rate accumulates). A capacity that shrinks lets calls in service finish. Every
 * {@value #SAMPLE_MS} ms the run takes a {@link Sample}. A run is deterministic and
 * single-threaded; the dependency's builder values are its only configuration, so one dependency
 * can run several limiters one after the other, each on a clock of its own or the same clock.
 */
public final class SimulatedDependency {

  /** How often a run samples the limit and the traffic, in milliseconds. */
  public static final int SAMPLE_MS = 100;

  private final int capacity;
  private final long serviceMs;
  private final int queue;
  private final TreeMap<Long, Double> loads;
  private final TreeMap<Long, Integer> capacities;
  private final TreeMap<Long, Long> serviceTimes;

  private SimulatedDependency(Builder builder) {
    this.capacity = builder.capacity;
    this.serviceMs = builder.serviceTime.toMillis();
    this.queue = builder.queue;
    this.loads = new TreeMap<>(builder.loads);
    this.capacities = new TreeMap<>(builder.capacities);
    this.serviceTimes = new TreeMap<>(builder.serviceTimes);
  }

  /**
   * Starts a dependency: by default capacity 10, service time 10 ms, a queue as long as the
   * capacity, and no load.
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * What a run asks before a call: a concurrency limiter under test.
   *
   * <p>{@link #of(GuardEngine, String)} adapts a guard resource; any other limiter needs only
   * these two methods.
   */
  public interface Limiter {

    /**
     * Asks to start a call.
     *
     * @return the permit of an admitted call, or null when the limiter refuses it
     */
    @Nullable Permit tryAcquire();

    /**
     * The limit in force now, for the samples.
     *
     * @return the limit, or -1 when the limiter has none
     */
    int limit();

    /**
     * Whether the limit in force now is a re-measurement's rather than the limit the limiter
     * found (an adaptive limit re-measuring its baseline); the figures of a {@link Run} that are
     * about the limit leave such samples out.
     *
     * @return whether the limiter is re-measuring; false by default
     */
    default boolean remeasuring() {
      return false;
    }

    /**
     * A limiter for calls of a guard resource, entered as detached entries ({@link
     * GuardedResource#enterAsync}); the limit is that of the resource's adaptive concurrency rule
     * ({@link RuleState.AdaptiveConcurrencyState}), -1 without one.
     *
     * @param engine the engine, on the run's clock
     * @param resource the resource the calls enter
     * @return the limiter
     */
    static Limiter of(GuardEngine engine, String resource) {
      Objects.requireNonNull(engine, "engine");
      GuardedResource handle = engine.resource(resource);
      return new Limiter() {
        @Override
        public @Nullable Permit tryAcquire() {
          Entry entry;
          try {
            entry = handle.enterAsync();
          } catch (RefusedException refused) {
            return null;
          }
          return failed -> {
            if (failed) {
              entry.recordError(new IllegalStateException("the simulated dependency is full"));
            }
            entry.close();
          };
        }

        @Override
        public int limit() {
          RuleState.AdaptiveConcurrencyState adaptive = state();
          return adaptive == null ? -1 : adaptive.limit();
        }

        @Override
        public boolean remeasuring() {
          RuleState.AdaptiveConcurrencyState adaptive = state();
          return adaptive != null && adaptive.remeasuring();
        }

        private RuleState.@Nullable AdaptiveConcurrencyState state() {
          for (RuleState state : engine.ruleStates(resource)) {
            if (state instanceof RuleState.AdaptiveConcurrencyState adaptive) {
              return adaptive;
            }
          }
          return null;
        }
      };
    }
  }

  /** The place an admitted call holds in a {@link Limiter}, given back once when the call ends. */
  @FunctionalInterface
  public interface Permit {

    /**
     * Gives the place back.
     *
     * @param failed whether the dependency failed the call
     */
    void release(boolean failed);
  }

  /**
   * What a run saw in one sampling interval of {@value #SAMPLE_MS} ms.
   *
   * @param atMs the end of the interval, in ms since the run started
   * @param limit the limiter's limit at the end of the interval (-1 when it has none)
   * @param inFlight calls admitted and not yet ended at the end of the interval
   * @param capacity the dependency's capacity during the interval
   * @param admitted calls the limiter admitted in the interval
   * @param refused calls the limiter refused
   * @param failed admitted calls the dependency failed (its queue was full)
   * @param served calls the dependency completed
   * @param latencySumMs the summed latency (queueing plus service) of the completed calls
   * @param remeasuring whether the limit at the end of the interval was a re-measurement's
   *     ({@link Limiter#remeasuring()})
   */
  public record Sample(long atMs, int limit, int inFlight, int capacity, long admitted,
      long refused, long failed, long served, long latencySumMs, boolean remeasuring) {

    /**
     * Returns the mean latency of the calls completed in the interval.
     *
     * @return milliseconds, or 0 when none completed
     */
    public double meanLatencyMs() {
      return served == 0 ? 0.0 : (double) latencySumMs / served;
    }
  }

  /**
   * Runs a limiter against this dependency, moving the clock by {@code length}.
   *
   * @param clock the clock the limiter reads; it is advanced, one millisecond at a time
   * @param limiter the limiter under test
   * @param length how long the run lasts; whole multiples of {@value #SAMPLE_MS} ms
   * @return what the run saw
   * @throws IllegalArgumentException if the length is not a positive multiple of the sampling
   *     interval
   */
  public Run run(ManualClock clock, Limiter limiter, Duration length) {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(limiter, "limiter");
    long total = length.toMillis();
    if (total <= 0 || total % SAMPLE_MS != 0 || length.toNanos() % 1_000_000L != 0) {
      throw new IllegalArgumentException("length must be a positive multiple of " + SAMPLE_MS
          + " ms, was " + length);
    }
    return new Simulation(limiter).play(clock, total);
  }

  /** The state of one run. */
  private final class Simulation {

    private final Limiter limiter;
    private final PriorityQueue<long[]> inService = // {end ms, id}
        new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0])
            : Long.compare(a[1], b[1]));
    private final ArrayDeque<long[]> waiting = new ArrayDeque<>(); // {arrival ms, id}
    private final ArrayDeque<long[]> failing = new ArrayDeque<>(); // {answer ms, id}
    private final List<Permit> permits = new ArrayList<>();
    private final List<Sample> samples = new ArrayList<>();
    private long admitted;
    private long refused;
    private long failed;
    private long served;
    private long latencySum;
    private double arrivals;
    private long service = serviceMs;

    Simulation(Limiter limiter) {
      this.limiter = limiter;
    }

    Run play(ManualClock clock, long total) {
      for (long t = 0; t < total; t++) {
        int cap = capacities.floorEntry(t) == null ? capacity : capacities.floorEntry(t).getValue();
        service = serviceTimes.floorEntry(t) == null ? serviceMs : serviceTimes.floorEntry(t).getValue();
        finish(t, cap);
        Double rate = loads.floorEntry(t) == null ? null : loads.floorEntry(t).getValue();
        arrivals += rate == null ? 0.0 : rate / 1000.0;
        while (arrivals >= 1.0) {
          arrivals -= 1.0;
          arrive(t, cap);
        }
        clock.advanceMillis(1);
        if ((t + 1) % SAMPLE_MS == 0) {
          samples.add(new Sample(t + 1, limiter.limit(), inService.size() + waiting.size() + failing.size(), cap,
              admitted, refused, failed, served, latencySum, limiter.remeasuring()));
          admitted = refused = failed = served = latencySum = 0;
        }
      }
      return new Run(samples, serviceMs);
    }

    private void finish(long t, int cap) {
      while (!failing.isEmpty() && failing.peek()[0] <= t) {
        release(failing.poll()[1], true);
      }
      while (!inService.isEmpty() && inService.peek()[0] <= t) {
        long[] done = inService.poll();
        served++;
        latencySum += t - done[2];
        release(done[1], false);
      }
      while (!waiting.isEmpty() && inService.size() < cap) {
        long[] next = waiting.poll();
        inService.add(new long[] {t + service, next[1], next[0]});
      }
    }

    private void arrive(long t, int cap) {
      Permit permit = limiter.tryAcquire();
      if (permit == null) {
        refused++;
        return;
      }
      admitted++;
      long id = permits.size();
      permits.add(permit);
      if (inService.size() < cap && waiting.isEmpty()) {
        inService.add(new long[] {t + service, id, t});
      } else if (waiting.size() < queue) {
        waiting.add(new long[] {t, id});
      } else {
        failed++;
        failing.add(new long[] {t + 1, id});
      }
    }

    private void release(long id, boolean failure) {
      Permit permit = permits.set((int) id, null);
      Objects.requireNonNull(permit, "permit").release(failure);
    }
  }

  /**
   * What one run saw: a {@link Sample} per {@value #SAMPLE_MS} ms, and figures over spans of it.
   * Spans are given as times since the run started and include the samples whose interval ends
   * after {@code from} and at or before {@code to}. The figures about the limit ({@link
   * #settledAt}, {@link #minLimit}, {@link #maxLimit}, {@link #reversals}) leave out the samples
   * taken while the limiter re-measured ({@link Sample#remeasuring()}); the others count them.
   */
  public static final class Run {

    private final List<Sample> samples;
    private final long serviceMs;

    Run(List<Sample> samples, long serviceMs) {
      this.samples = List.copyOf(samples);
      this.serviceMs = serviceMs;
    }

    /**
     * Returns every sample, in time order.
     *
     * @return the samples
     */
    public List<Sample> samples() {
      return samples;
    }

    /**
     * Returns the unloaded latency of the dependency: its service time at the start of the run.
     *
     * @return milliseconds
     */
    public long unloadedLatencyMs() {
      return serviceMs;
    }

    /**
     * Returns how long after {@code from} the limit came within {@code tolerance} of {@code
     * target} to stay there until {@code to}.
     *
     * @param target the limit expected
     * @param tolerance the relative band, e.g. 0.1 for ±10 %
     * @param from the start of the span
     * @param to the end of the span
     * @return the time from {@code from} to the first sample after which every sample up to
     *     {@code to} is in the band, or empty when the span ends outside it
     */
    public java.util.Optional<Duration> settledAt(
        int target, double tolerance, Duration from, Duration to) {
      List<Sample> span = limits(from, to);
      long settled = -1;
      for (Sample sample : span) {
        boolean in = Math.abs(sample.limit() - target) <= tolerance * target;
        if (!in) {
          settled = -1;
        } else if (settled < 0) {
          settled = sample.atMs();
        }
      }
      return settled < 0 ? java.util.Optional.empty()
          : java.util.Optional.of(Duration.ofMillis(Math.max(0, settled - from.toMillis())));
    }

    /**
     * Returns the mean latency of the calls completed in a span.
     *
     * @param from the start of the span
     * @param to its end
     * @return milliseconds, or 0 when none completed
     */
    public double meanLatencyMs(Duration from, Duration to) {
      long n = 0;
      long sum = 0;
      for (Sample sample : span(from, to)) {
        n += sample.served();
        sum += sample.latencySumMs();
      }
      return n == 0 ? 0.0 : (double) sum / n;
    }

    /**
     * Returns the lowest limit sampled in a span.
     *
     * @param from the start of the span
     * @param to its end
     * @return the lowest limit, or -1 when the span has no sample
     */
    public int minLimit(Duration from, Duration to) {
      return limits(from, to).stream().mapToInt(Sample::limit).min().orElse(-1);
    }

    /**
     * Returns the highest limit sampled in a span.
     *
     * @param from the start of the span
     * @param to its end
     * @return the highest limit, or -1 when the span has no sample
     */
    public int maxLimit(Duration from, Duration to) {
      return limits(from, to).stream().mapToInt(Sample::limit).max().orElse(-1);
    }

    /**
     * Returns how many times the limit changed direction in a span (up then down, or down then
     * up): 0 for a limit that only rises, only falls or stays.
     *
     * @param from the start of the span
     * @param to its end
     * @return the reversals
     */
    public int reversals(Duration from, Duration to) {
      int reversals = 0;
      int direction = 0;
      int previous = Integer.MIN_VALUE;
      for (Sample sample : limits(from, to)) {
        if (previous != Integer.MIN_VALUE && sample.limit() != previous) {
          int now = sample.limit() > previous ? 1 : -1;
          reversals += direction != 0 && now != direction ? 1 : 0;
          direction = now;
        }
        previous = sample.limit();
      }
      return reversals;
    }

    /**
     * Returns the calls the dependency failed in a span.
     *
     * @param from the start of the span
     * @param to its end
     * @return the failed calls
     */
    public long failed(Duration from, Duration to) {
      return span(from, to).stream().mapToLong(Sample::failed).sum();
    }

    /**
     * Returns the calls the dependency completed in a span.
     *
     * @param from the start of the span
     * @param to its end
     * @return the completed calls
     */
    public long served(Duration from, Duration to) {
      return span(from, to).stream().mapToLong(Sample::served).sum();
    }

    /** The samples of a span whose limit is the one the limiter found (no re-measurement). */
    private List<Sample> limits(Duration from, Duration to) {
      List<Sample> out = span(from, to);
      out.removeIf(Sample::remeasuring);
      return out;
    }

    private List<Sample> span(Duration from, Duration to) {
      long a = from.toMillis();
      long b = to.toMillis();
      List<Sample> out = new ArrayList<>();
      for (Sample sample : samples) {
        if (sample.atMs() > a && sample.atMs() <= b) {
          out.add(sample);
        }
      }
      return out;
    }
  }

  /** Builds a {@link SimulatedDependency}; every setting is checked when it is given. */
  public static final class Builder {

    private int capacity = 10;
    private Duration serviceTime = Duration.ofMillis(10);
    private int queue = -1;
    private final TreeMap<Long, Double> loads = new TreeMap<>();
    private final TreeMap<Long, Integer> capacities = new TreeMap<>();
    private final TreeMap<Long, Long> serviceTimes = new TreeMap<>();

    private Builder() {}

    /**
     * Sets how many calls the dependency serves at once from the start of a run.
     *
     * @param calls the capacity; {@code >= 1}
     * @return this builder
     * @throws IllegalArgumentException if {@code calls} is not positive
     */
    public Builder capacity(int calls) {
      capacity = positive("capacity", calls);
      return this;
    }

    /**
     * Sets how long the dependency serves one call: the latency of a call that does not queue.
     *
     * @param time the service time; positive whole milliseconds
     * @return this builder
     * @throws IllegalArgumentException if the time is not positive whole milliseconds
     */
    public Builder serviceTime(Duration time) {
      serviceTime = serviceMillis(time);
      return this;
    }

    /**
     * Changes the service time at a time of the run, for good: calls that start service from then
     * on take {@code time} (a dependency that became slower, with more data or slower hardware).
     *
     * @param at the time since the run started; whole milliseconds, not negative
     * @param time the service time from then on; positive whole milliseconds
     * @return this builder
     * @throws IllegalArgumentException if a value is invalid
     */
    public Builder serviceTimeFrom(Duration at, Duration time) {
      serviceTimes.put(millis("at", at), serviceMillis(time).toMillis());
      return this;
    }

    private static Duration serviceMillis(Duration time) {
      Objects.requireNonNull(time, "serviceTime");
      if (time.isNegative() || time.isZero() || time.toNanos() % 1_000_000L != 0) {
        throw new IllegalArgumentException(
            "serviceTime must be positive whole milliseconds, was " + time);
      }
      return time;
    }

    /**
     * Sets how many admitted calls may wait for a place; a call arriving at a full queue fails
     * at once (default: as many as the capacity).
     *
     * @param calls the queue length; {@code >= 0}
     * @return this builder
     * @throws IllegalArgumentException if {@code calls} is negative
     */
    public Builder queue(int calls) {
      if (calls < 0) {
        throw new IllegalArgumentException("queue must be >= 0, was " + calls);
      }
      queue = calls;
      return this;
    }

    /**
     * Sets the arrival rate from the start of a run.
     *
     * @param callsPerSecond calls arriving per second; finite, {@code >= 0}
     * @return this builder
     * @throws IllegalArgumentException if the rate is negative, NaN or infinite
     */
    public Builder load(double callsPerSecond) {
      return loadFrom(Duration.ZERO, callsPerSecond);
    }

    /**
     * Changes the arrival rate at a time of the run.
     *
     * @param at the time since the run started; whole milliseconds, not negative
     * @param callsPerSecond calls arriving per second from then on; finite, {@code >= 0}
     * @return this builder
     * @throws IllegalArgumentException if a value is invalid
     */
    public Builder loadFrom(Duration at, double callsPerSecond) {
      if (!(callsPerSecond >= 0) || Double.isInfinite(callsPerSecond)) {
        throw new IllegalArgumentException(
            "load must be finite and >= 0 calls per second, was " + callsPerSecond);
      }
      loads.put(millis("at", at), callsPerSecond);
      return this;
    }

    /**
     * Changes the capacity at a time of the run (calls in service beyond a smaller capacity
     * finish first).
     *
     * @param at the time since the run started; whole milliseconds, not negative
     * @param calls the capacity from then on; {@code >= 1}
     * @return this builder
     * @throws IllegalArgumentException if a value is invalid
     */
    public Builder capacityFrom(Duration at, int calls) {
      capacities.put(millis("at", at), positive("capacity", calls));
      return this;
    }

    /**
     * Builds the dependency.
     *
     * @return the dependency
     */
    public SimulatedDependency build() {
      if (queue < 0) {
        queue = capacity;
      }
      return new SimulatedDependency(this);
    }

    private static int positive(String field, int value) {
      if (value < 1) {
        throw new IllegalArgumentException(field + " must be >= 1, was " + value);
      }
      return value;
    }

    private static long millis(String field, Duration at) {
      Objects.requireNonNull(at, field);
      if (at.isNegative() || at.toNanos() % 1_000_000L != 0) {
        throw new IllegalArgumentException(
            field + " must be whole milliseconds, not negative, was " + at);
      }
      return at.toMillis();
    }
  }
}
