package dev.guard.benchmarks;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.PerValueRule;
import dev.guard.engine.GuardEngine;
import dev.guard.redis.RedisTokenService;
import dev.guard.spi.TokenService;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One cluster per-key decision on Redis: a call of a cluster per-value rule with a quota (a
 * budget per key so large that every call passes: 16,000,000 a minute and as many a day) over
 * 1,024 keys in turn, on an engine whose token service is a {@link RedisTokenService} connected
 * to a local {@code redis-server} that the benchmark starts on a free loopback port and stops.
 * {@code exact} is a plain service, {@code leased} one built with {@code lease(64)}: per-value
 * rules are decided exactly in both (one script round trip per call), so the two should cost the
 * same; the pair shows that leased mode does not change them. Throughput gives decisions per
 * second of one thread (one instance); sample time the latency distribution.
 */
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class RedisPerKeyDecisionBenchmark {

  private static final int KEYS = 1024;

  /** A redis-server, a service in the mode under test, and an engine with one per-key rule. */
  @State(Scope.Benchmark)
  @SuppressWarnings("NullAway.Init") // the fields are set in @Setup, before any benchmark call
  public static class RedisState {
    @Param({"exact", "leased"})
    public String mode = "exact";

    LocalRedis redis;
    RedisTokenService service;
    GuardEngine engine;
    final String[] keys = new String[KEYS];

    /** Starts redis-server, connects the service and checks that calls are decided by Redis. */
    @Setup(Level.Trial)
    public void start() throws IOException, InterruptedException {
      redis = LocalRedis.start();
      service = redis.service(mode);
      PerValueRule rule = PerValueRule.qps("bench-keys", 0, 16_000_000)
          .withPeriod(Duration.ofMinutes(1)).withQuota(16_000_000, Duration.ofDays(1))
          .withCluster(ClusterMode.global("bench-keys").withFallbackToLocal(false));
      for (int i = 0; i < KEYS; i++) {
        keys[i] = "key-" + i;
      }
      redis.awaitDecisions(() -> service.requestValueToken(rule, "probe", 1).status()
          == TokenService.Result.Status.OK);
      engine = GuardEngine.builder().tokenService(service).build();
      engine.apply(engine.ruleSet().withRulesOf("bench-keys", List.of(rule)));
    }

    /** Closes the service and kills redis-server. */
    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
      redis.stop(service);
    }
  }

  /** The next key of one thread. */
  @State(Scope.Thread)
  public static class Turn {
    int next;
  }

  /** {@code engine.resource(..).enter(key)} of a per-key rule decided on Redis, then exit. */
  @Benchmark
  public Object clusterPerKeyDecision(RedisState state, Turn turn) {
    String key = state.keys[turn.next++ & (KEYS - 1)];
    try (Entry entry = state.engine.resource("bench-keys").enter(key)) {
      return entry;
    } catch (RefusedException refused) {
      return refused;
    }
  }
}
