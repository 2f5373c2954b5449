package dev.guard.benchmarks;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * guard in the shapes applications have, next to the best case the other benchmarks measure:
 *
 * <ul>
 *   <li><b>user-built</b>: the decorated supplier sits in a non-final field of a state built in
 *       {@code @Setup(Level.Trial)}, so the JIT cannot treat it as a constant, and the caller
 *       catches the {@link RefusedException} itself (the refusal a caller reads);
 *   <li><b>many guards</b>: the same, after sixteen other guards of every kind (rates, warm-up,
 *       pacing, concurrency, breakers, per-value rules, a fallback, a throwing refusal) have run
 *       through the same engine code, so its call sites have seen many shapes, as in a service
 *       with many protected calls.
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class CallerShapeBenchmark {

  /** A refusing and an admitting guard, each in a field the JIT cannot fold. */
  @State(Scope.Benchmark)
  public static class UserBuilt {
    Supplier<Object> refusing = Calls.BODY;
    Supplier<Object> admitting = Calls.BODY;

    /** Builds the guards the way an application does, and checks their paths. */
    @Setup(Level.Trial)
    public void build() {
      refusing = Guard.of("shape-refusing").qps(0).on(GuardEngine.builder().build())
          .decorate(Calls.BODY);
      admitting = Guard.of("shape-admitting").qps(Calls.HUGE_RATE)
          .on(GuardEngine.builder().build()).decorate(Calls.BODY);
      check(this);
    }
  }

  /** The same two guards, built after sixteen others have run on their engine. */
  @State(Scope.Benchmark)
  public static class ManyGuards extends UserBuilt {
    @Override
    @Setup(Level.Trial)
    public void build() {
      GuardEngine engine = GuardEngine.builder().build();
      for (Supplier<Object> other : others(engine)) {
        for (int i = 0; i < 20_000; i++) {
          try {
            var unused = other.get();
          } catch (RefusedException refused) {
            // some of the others refuse: that is part of the shape
          }
        }
      }
      refusing = Guard.of("shape-refusing").qps(0).on(engine).decorate(Calls.BODY);
      admitting = Guard.of("shape-admitting").qps(Calls.HUGE_RATE).on(engine)
          .decorate(Calls.BODY);
      check(this);
    }

    private static List<Supplier<Object>> others(GuardEngine engine) {
      List<Supplier<Object>> others = new ArrayList<>();
      Function<Object, Object> echo = input -> input;
      for (int i = 0; i < 2; i++) {
        String n = "other-" + i + "-";
        others.add(Guard.of(n + "qps").qps(Calls.HUGE_RATE).on(engine).decorate(Calls.BODY));
        others.add(Guard.of(n + "warm").qps(Calls.HUGE_RATE).warmUp(Duration.ofSeconds(10))
            .on(engine).decorate(Calls.BODY));
        others.add(Guard.of(n + "pacing").qps(Calls.HUGE_RATE).pacing(Duration.ofMillis(1))
            .on(engine).decorate(Calls.BODY));
        others.add(Guard.of(n + "concurrency").concurrency(1_000).on(engine)
            .decorate(Calls.BODY));
        others.add(Guard.of(n + "breaker").qps(Calls.HUGE_RATE).errorRatio(0.5).on(engine)
            .decorate(Calls.BODY));
        Function<Object, Object> perValue = Guard.of(n + "per-value").perValue(0, 1_000_000)
            .on(engine).decorateFunction(echo);
        others.add(() -> perValue.apply(Calls.ADMITTED));
        others.add(Guard.of(n + "fallback").qps(0).on(engine)
            .decorateOrElse(Calls.BODY, refused -> Calls.REFUSED));
        others.add(Guard.of(n + "refusing").qps(0).on(engine).decorate(Calls.BODY));
      }
      return others;
    }
  }

  private static void check(UserBuilt state) {
    Sanity.requireMostlyRefused("guard refusal, user-built", () -> readRefusal(state.refusing));
    Sanity.requireAllAdmitted("guard QPS pass, user-built", state.admitting);
  }

  private static Object readRefusal(Supplier<Object> guarded) {
    try {
      return guarded.get();
    } catch (RefusedException refused) {
      return Calls.REFUSED;
    }
  }

  /** A throwing refusal the caller catches: {@code try { s.get() } catch (RefusedException e)}. */
  @Benchmark
  public Object throwingRefusal(UserBuilt state) {
    return readRefusal(state.refusing);
  }

  /** The same refusal, reading {@code retryAfterMillis()} as an HTTP adapter does. */
  @Benchmark
  public long throwingRefusalRetryAfter(UserBuilt state) {
    try {
      return state.refusing.get() == Calls.ADMITTED ? -1 : -2;
    } catch (RefusedException refused) {
      return refused.retryAfterMillis();
    }
  }

  /** One QPS rule that admits, {@code decorate(body).get()}. */
  @Benchmark
  public Object qpsPass(UserBuilt state) {
    return state.admitting.get();
  }

  /** The throwing refusal in a process with many guards. */
  @Benchmark
  public Object manyGuardsThrowingRefusal(ManyGuards state) {
    return readRefusal(state.refusing);
  }

  /** One QPS rule that admits, in a process with many guards. */
  @Benchmark
  public Object manyGuardsQpsPass(ManyGuards state) {
    return state.admitting.get();
  }
}
