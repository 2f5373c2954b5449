package dev.guard.benchmarks;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TokenService;
import dev.guard.redis.RedisTokenService;
import java.io.IOException;
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
 * One cluster decision on Redis: a call of a cluster QPS rule ({@link Calls#HUGE_RATE} per second,
 * so every call passes) on an engine whose token service is a {@link RedisTokenService} connected
 * to a local {@code redis-server} that the benchmark starts on a free loopback port and stops.
 * {@code exact} asks Redis on every call (one script round trip); {@code leased} takes up to 64
 * permits per round trip and spends them locally. Throughput gives decisions per second of one
 * thread (one instance); sample time gives the latency distribution (p50, p99).
 */
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class RedisClusterDecisionBenchmark {

  /** A redis-server, a service in the mode under test, and an engine with one cluster rule. */
  @State(Scope.Benchmark)
  @SuppressWarnings("NullAway.Init") // the fields are set in @Setup, before any benchmark call
  public static class RedisState {
    @Param({"exact", "leased"})
    public String mode = "exact";

    LocalRedis redis;
    RedisTokenService service;
    GuardEngine engine;

    /** Starts redis-server, connects the service and checks that calls are decided by Redis. */
    @Setup(Level.Trial)
    public void start() throws IOException, InterruptedException {
      redis = LocalRedis.start();
      service = redis.service(mode);
      FlowRule rule = FlowRule.qps("bench-redis", Calls.HUGE_RATE)
          .withCluster(ClusterMode.global("bench").withFallbackToLocal(false));
      redis.awaitDecisions(() -> service.requestToken(rule, 1, true).status()
          == TokenService.Result.Status.OK);
      engine = GuardEngine.builder().tokenService(service).build();
      engine.apply(engine.ruleSet().withRulesOf("bench-redis", List.of(rule)));
    }

    /** Closes the service and kills redis-server. */
    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
      redis.stop(service);
    }
  }

  /** {@code engine.resource(..).enter()} of a cluster rule decided on Redis, then exit. */
  @Benchmark
  public Object clusterDecision(RedisState state) {
    try (Entry entry = state.engine.resource("bench-redis").enter()) {
      return entry;
    } catch (RefusedException refused) {
      return refused;
    }
  }
}
