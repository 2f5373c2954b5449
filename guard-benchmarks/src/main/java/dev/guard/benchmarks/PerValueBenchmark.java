package dev.guard.benchmarks;

import com.alibaba.csp.sentinel.slots.block.RuleConstant;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowRule;
import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Scenario 4: a per-argument QPS limit (per value) with a huge count, called with arguments
 * that cycle through {@link #DISTINCT_VALUES} preallocated values, so every value keeps its own
 * token bucket. Only Sentinel has this feature among the peers; guard is measured next to it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class PerValueBenchmark {
  /**
   * guard: a per-value rule on argument 0 whose per-value count is never reached, on its own
   * engine, through {@code decorateFunction}.
   */
  @State(Scope.Benchmark)
  public static class GuardState {
    /** Calls per value per second: far above what one of the 1,000 values gets here. */
    static final int PER_VALUE = 10_000_000;

    final GuardEngine engine = GuardEngine.builder().build();
    final Function<Object, Object> decorated = Guard.of("bench-per-value")
        .perValue(0, PER_VALUE).on(engine)
        .decorateFunction(value -> Calls.BODY.get());
    final Function<Object, Object> probe = Guard.of("bench-per-value-probe")
        .perValue(0, 0).on(engine)
        .decorateFunction(value -> Calls.BODY.get());

    /** Checks that the rule admits every call over all values, and that it is enforced at all. */
    @Setup
    public void check() {
      Arguments arguments = new Arguments();
      Sanity.requireAllAdmitted("guard per-value rule", () -> call(arguments));
      Sanity.requireMostlyRefused("guard per-value rule with count 0",
          () -> refusedAsValue(probe, arguments.next()));
    }

    Object call(Arguments arguments) {
      return refusedAsValue(decorated, arguments.next());
    }

    Object call(OwnArguments arguments) {
      return refusedAsValue(decorated, arguments.next());
    }

    private static Object refusedAsValue(Function<Object, Object> guarded, Object value) {
      try {
        return guarded.apply(value);
      } catch (RefusedException refused) {
        return Calls.REFUSED;
      }
    }
  }

  /** {@code Guard.of(..).perValue(0, n).decorateFunction(body).apply(value)}. */
  @Benchmark
  public Object guard(GuardState state, Arguments arguments) {
    return state.call(arguments);
  }

  /**
   * As {@link #guard}, but each thread cycles through its own share of the values, so no value's
   * bucket is written by two cores: with one thread the same as {@link #guard}; with two, it
   * shows what the cores' sharing of the buckets costs in {@link #guard}.
   */
  @Benchmark
  public Object guardOwnValues(GuardState state, OwnArguments arguments) {
    return state.call(arguments);
  }

  /** How many distinct argument values the calls cycle through. */
  static final int DISTINCT_VALUES = 1_000;

  private static final Object[] VALUES = new Object[DISTINCT_VALUES];

  static {
    for (int i = 0; i < DISTINCT_VALUES; i++) {
      VALUES[i] = "user-" + i;
    }
  }

  /** Each thread's position in the values; threads start at different places. */
  @State(Scope.Thread)
  public static class Arguments {
    int next;

    /** Spreads the threads' starting points evenly over the values. */
    @Setup
    public void spread(ThreadParams threads) {
      next = threads.getThreadIndex() * (DISTINCT_VALUES / threads.getThreadCount());
    }

    Object next() {
      Object value = VALUES[next];
      next = next + 1 == DISTINCT_VALUES ? 0 : next + 1;
      return value;
    }
  }

  /** Each thread's position in its own share of the values. */
  @State(Scope.Thread)
  public static class OwnArguments {
    int first;
    int end;
    int next;

    /** Gives each thread an equal share of the values of its own. */
    @Setup
    public void share(ThreadParams threads) {
      int share = DISTINCT_VALUES / threads.getThreadCount();
      first = threads.getThreadIndex() * share;
      end = first + share;
      next = first;
    }

    Object next() {
      Object value = VALUES[next];
      next = next + 1 == end ? first : next + 1;
      return value;
    }
  }

  /** A Sentinel {@code PerValueRule} on argument 0 with a huge per-value QPS count. */
  @State(Scope.Benchmark)
  public static class SentinelState {
    static final String RESOURCE = "bench-per-value";

    /** A resource whose per-value rule refuses everything: proves the param slot is active. */
    static final String PROBE = "bench-per-value-probe";

    public SentinelState() {
      Sentinel.addPerValueRule(paramRule(RESOURCE, Calls.HUGE_RATE));
      Sentinel.addPerValueRule(paramRule(PROBE, 0));
    }

    private static ParamFlowRule paramRule(String resource, double count) {
      return new ParamFlowRule(resource)
          .setParamIdx(0)
          .setGrade(RuleConstant.FLOW_GRADE_QPS)
          .setCount(count);
    }

    /**
     * Checks that the rule admits every call over all values, and that hot-param rules are
     * enforced at all (Sentinel finds the slot through META-INF/services, which a badly merged
     * jar loses).
     */
    @Setup
    public void check() {
      Arguments arguments = new Arguments();
      Sanity.requireAllAdmitted("Sentinel hot-param rule", () -> call(arguments));
      Sanity.requireMostlyRefused(
          "Sentinel hot-param rule with count 0",
          () -> Sentinel.callWithArgument(PROBE, arguments.next(), Calls.BODY));
    }

    Object call(Arguments arguments) {
      return Sentinel.callWithArgument(RESOURCE, arguments.next(), Calls.BODY);
    }
  }

  /** {@code SphU.entry(resource, OUT, 1, value)}, the body, {@code entry.exit(1, value)}. */
  @Benchmark
  public Object sentinel(SentinelState state, Arguments arguments) {
    return state.call(arguments);
  }
}
