package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.spi.TimeSource;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A paced call sleeps until the deadline its decision fixed: time that passes between deciding
 * and sleeping is not waited again.
 */
class PacingDeadlineTest {

  /** A clock that moves 1 ms at every precise reading and records the sleeps asked of it. */
  private static final class SlowClock implements TimeSource {
    long now;
    final List<Long> sleeps = new ArrayList<>();

    @Override
    public long nanoTime() {
      now += 1_000_000;
      return now;
    }

    @Override
    public long coarseNanoTime() {
      return now;
    }

    @Override
    public void sleep(long nanos) {
      sleeps.add(nanos);
      now += Math.max(0, nanos);
    }
  }

  @Test
  void pacedCall_timePassesBeforeItSleeps_sleepsOnlyWhatIsLeft() {
    SlowClock clock = new SlowClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 10).withShaping(FlowRule.Shaping.PACING))));

    try (Entry first = engine.resource("R").enter()) {
      assertThat(clock.sleeps).isEmpty();
    }
    try (Entry second = engine.resource("R").enter()) {
      assertThat(clock.sleeps).hasSize(1);
    }

    // the second decision found its turn 100 ms after the first (less the 1 ms the decision's own
    // reading took); the clock then moved 1 ms more before the sleep, which is not waited again
    assertThat(clock.sleeps.get(0)).isEqualTo(98_000_000L);
  }
}
