package dev.guard.benchmarks;

import dev.guard.api.TimeSource;
import dev.guard.engine.Entry;
import dev.guard.engine.GuardEngine;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.*;

@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class ExperimentBenchmark {
  final GuardEngine engine = GuardEngine.builder().build();
  final TimeSource clock = TimeSource.system();
  final LongAdder a = new LongAdder();
  final LongAdder b = new LongAdder();
  final ThreadLocal<Object> tl = ThreadLocal.withInitial(Object::new);

  @Benchmark public long coarse() { return clock.coarseNanoTime(); }
  @Benchmark public Object threadLocal() { return tl.get(); }
  @Benchmark public void fourAdders() { a.increment(); b.increment(); a.decrement(); b.decrement(); }
  @Benchmark public Object lowLevel() { try (Entry e = engine.enter("x")) { return e; } }
}
