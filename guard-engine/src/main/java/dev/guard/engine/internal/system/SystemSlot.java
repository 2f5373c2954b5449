package dev.guard.engine.internal.system;

import dev.guard.engine.internal.chain.Call;
import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.SystemRule;
import dev.guard.spi.SystemStatus;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.stat.StatisticNode;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Applies the engine's merged system rule to the inbound calls of one resource; outbound calls
 * pass untouched. The checks run in this order and the first that fails refuses (see {@code
 * docs/BEHAVIOUR.md}), all against the engine's inbound node:
 *
 * <ol>
 *   <li>qps: {@code passQps + permits > maxInboundQps};
 *   <li>concurrency: {@code running + 1 > maxConcurrency}, where {@code running} is the larger of
 *       the inbound concurrency gauge and the calls holding a reservation: {@code maxConcurrency =
 *       N} admits at most N;
 *   <li>rt: {@code avgRt > maxAverageRt} (milliseconds);
 *   <li>load: the status source's load per CPU {@code > maxSystemLoad}, and the inbound calls
 *       running exceed what the measured capacity can serve: {@code running > 1} and {@code
 *       running > maxSuccessQps × minRt / 1000};
 *   <li>cpu: the status source's CPU usage {@code > maxCpuUsage}.
 * </ol>
 *
 * <p>A reading the status source does not know (negative) refuses nothing. Under a concurrency
 * limit the call then reserves its place ({@link SystemProtection#tryAdmit}), which can still
 * refuse it when other threads took the last places meanwhile; the place is given back when the
 * call exits, or when a later slot refuses it ({@link #abandon}). The grant bits mark a reservation
 * with a tag mixed with the entry's generation, so a stale value left by another use of a pooled
 * entry is never mistaken for one.
 *
 * <p>Refusals are created once per threshold, on first use, and shared.
 */
final class SystemSlot implements Slot {

  private static final long RESERVED = 0x5157_0000_0000_0000L;

  final SystemRule rule;
  private final String resource;
  private final StatisticNode inbound;
  private final SystemProtection protection;
  private final SystemStatus status;
  private final boolean checksQps;
  private final double maxQps;
  private final boolean limitsConcurrency;
  private final long maxConcurrency;
  private final boolean checksRt;
  private final double maxRtMs;
  private final boolean checksLoad;
  private final double maxLoad;
  private final boolean checksCpu;
  private final double maxCpu;
  private final SlotContext clock;
  private final int bucketLengthMs;
  private final AtomicReferenceArray<RefusedException.SystemProtection> refusals =
      new AtomicReferenceArray<>(SystemRule.Limit.values().length);

  SystemSlot(String resource, SystemRule rule, SlotContext context, SystemProtection protection) {
    this.rule = rule;
    this.resource = resource;
    this.inbound = context.inbound();
    this.protection = protection;
    this.clock = context;
    this.bucketLengthMs = context.secondWindow().bucketLengthMs();
    this.status = protection.status();
    Double qps = rule.maxInboundQps();
    Integer concurrency = rule.maxConcurrency();
    Duration rt = rule.maxAverageRt();
    Double load = rule.maxSystemLoad();
    Double cpu = rule.maxCpuUsage();
    this.checksQps = qps != null;
    this.maxQps = qps == null ? 0 : qps;
    this.limitsConcurrency = concurrency != null;
    this.maxConcurrency = concurrency == null ? 0 : concurrency;
    this.checksRt = rt != null;
    this.maxRtMs = rt == null ? 0 : rt.toNanos() / 1_000_000.0;
    this.checksLoad = load != null;
    this.maxLoad = load == null ? 0 : load;
    this.checksCpu = cpu != null;
    this.maxCpu = cpu == null ? 0 : cpu;
  }

  @Override
  public @Nullable RefusedException enter(Call entry) {
    if (entry.type() != EntryType.IN) {
      return null;
    }
    if (limitsConcurrency) {
      entry.keepGrantBits(0L);
    }
    long nowMs = entry.nowMs();
    if (checksQps && inbound.passQps(nowMs) + entry.count() > maxQps) {
      return refusal(SystemRule.Limit.QPS);
    }
    long running = 0;
    if (limitsConcurrency || checksLoad) {
      running = inbound.concurrency();
      if (limitsConcurrency) {
        running = Math.max(running, protection.admitted());
        if (running + 1 > maxConcurrency) {
          return refusal(SystemRule.Limit.CONCURRENCY);
        }
      }
    }
    if (checksRt && inbound.avgRt(nowMs) > maxRtMs) {
      return refusal(SystemRule.Limit.RT);
    }
    if (checksLoad && status.systemLoad() > maxLoad && overCapacity(running, nowMs)) {
      return refusal(SystemRule.Limit.LOAD);
    }
    if (checksCpu && status.cpuUsage() > maxCpu) {
      return refusal(SystemRule.Limit.CPU);
    }
    if (limitsConcurrency) {
      if (!protection.tryAdmit(maxConcurrency)) {
        return refusal(SystemRule.Limit.CONCURRENCY);
      }
      entry.keepGrantBits(RESERVED ^ entry.generation());
    }
    return null;
  }

  /** More inbound calls run than the measured capacity, peak completions × minimum RT, serves. */
  private boolean overCapacity(long running, long nowMs) {
    return running > 1 && running > inbound.maxSuccessQps(nowMs) * inbound.minRt(nowMs) / 1000;
  }

  @Override
  public void abandon(Call entry) {
    release(entry);
  }

  @Override
  public void exit(Call entry) {
    release(entry);
  }

  private void release(Call entry) {
    if (limitsConcurrency && entry.type() == EntryType.IN
        && entry.grantBits() == (RESERVED ^ entry.generation())) {
      entry.keepGrantBits(0L);
      protection.release();
    }
  }

  /**
   * QPS and RT are measured over the inbound second window: a retry may pass once its next bucket
   * starts. Concurrency, load and CPU give no time.
   */
  private LongSupplier retryReader(SystemRule.Limit limit) {
    if (limit != SystemRule.Limit.QPS && limit != SystemRule.Limit.RT) {
      return () -> -1L;
    }
    long bucketNanos = bucketLengthMs * 1_000_000L;
    return () -> bucketNanos - clock.preciseNowNanos() % bucketNanos;
  }

  private RefusedException.SystemProtection refusal(SystemRule.Limit limit) {
    int index = limit.ordinal();
    RefusedException.SystemProtection refusal = refusals.get(index);
    if (refusal == null) {
      refusal = new RefusedException.SystemProtection(resource, rule, limit, retryReader(limit));
      if (!refusals.compareAndSet(index, null, refusal)) {
        refusal = refusals.get(index);
      }
    }
    return refusal;
  }
}
