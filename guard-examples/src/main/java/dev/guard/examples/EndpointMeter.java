package dev.guard.examples;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the demo measures of one endpoint by itself, independent of the engine's statistics: passes
 * and refusals per second, when each pass happened, how many admitted calls ran at once, and, for an
 * endpoint called on behalf of users, passes and refusals per user.
 *
 * <p>Thread-safe.
 */
final class EndpointMeter {

  private final Endpoint endpoint;
  private final SecondCounters counters;
  private final AdmissionLog admissions;
  private final Map<String, LongAdder[]> perCaller = new ConcurrentHashMap<>();
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger peakRunning = new AtomicInteger();

  /**
   * Creates an empty meter.
   *
   * @param endpoint the measured endpoint
   * @param startNanos the time-source reading at the start of the run
   * @param seconds the length of the run in seconds
   */
  EndpointMeter(Endpoint endpoint, long startNanos, int seconds) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.counters = new SecondCounters(startNanos, seconds);
    this.admissions = new AdmissionLog(startNanos);
  }

  /** Records an admitted call that starts running now; pair it with {@link #finished()}. */
  void started(long nowNanos) {
    counters.recordPass(nowNanos);
    admissions.record(nowNanos);
    peakRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
  }

  /** Records the end of an admitted call. */
  void finished() {
    running.decrementAndGet();
  }

  /** Records that an admitted call which started at {@code startedNanos} failed. */
  void failed(long startedNanos) {
    counters.recordFailure(startedNanos);
  }

  /** Records a refused call. */
  void refused(long nowNanos) {
    counters.recordRefused(nowNanos);
  }

  /** Records the outcome of a call made on behalf of a user. */
  void outcomeOf(String caller, boolean admitted) {
    perCaller.computeIfAbsent(caller, c -> new LongAdder[] {new LongAdder(), new LongAdder()})
        [admitted ? 0 : 1].increment();
  }

  /** Passed calls of a user. */
  long passedOf(String caller) {
    LongAdder[] counts = perCaller.get(caller);
    return counts == null ? 0 : counts[0].sum();
  }

  /** Refused calls of a user. */
  long refusedOf(String caller) {
    LongAdder[] counts = perCaller.get(caller);
    return counts == null ? 0 : counts[1].sum();
  }

  Endpoint endpoint() {
    return endpoint;
  }

  String name() {
    return endpoint.name();
  }

  SecondCounters counters() {
    return counters;
  }

  AdmissionLog admissions() {
    return admissions;
  }

  /** The most admitted calls that were running at the same moment. */
  int peakRunning() {
    return peakRunning.get();
  }
}
