package dev.guard.benchmarks;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRuleManager;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRuleManager;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowRuleManager;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Scenario 1: entering and exiting a resource that has no rules, the cost of the statistics alone.
 * Only Sentinel has a comparable notion; Resilience4j, Bucket4j and Guava need a limiter object.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class NoRulesBenchmark {
  /** guard: a resource with no rules, on its own engine, through the decorator with a fallback. */
  @State(Scope.Benchmark)
  public static class GuardState {
    final Supplier<Object> decorated =
        Guard.of("bench-no-rules")
            .on(GuardEngine.builder().build())
            .decorateOrElse(Calls.BODY, refused -> Calls.REFUSED);

    /** Checks that the guard takes the measured path. */
    @Setup
    public void check() {
      Sanity.requireAllAdmitted("guard resource without rules", this::call);
    }

    Object call() {
      return decorated.get();
    }
  }

  /** {@code Guard...decorateOrElse(body, fallback).get()}. */
  @Benchmark
  public Object guard(GuardState state) {
    return state.call();
  }


  /** A Sentinel resource for which no rule of any kind is loaded. */
  @State(Scope.Benchmark)
  public static class SentinelState {
    static final String RESOURCE = "bench-no-rules";

    /** Checks that the resource has no rules and that its calls pass. */
    @Setup
    public void check() {
      Sanity.require(
          !FlowRuleManager.hasConfig(RESOURCE)
              && !DegradeRuleManager.hasConfig(RESOURCE)
              && !ParamFlowRuleManager.hasRules(RESOURCE),
          "the no-rules resource has rules");
      Sanity.requireAllAdmitted("Sentinel without rules", this::call);
    }

    Object call() {
      return Sentinel.call(RESOURCE, Calls.BODY);
    }
  }

  /** {@code SphU.entry} in try-with-resources around the body. */
  @Benchmark
  public Object sentinel(SentinelState state) {
    return state.call();
  }
}
