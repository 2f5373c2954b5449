package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Pacing and warm-up pacing steps of the Guard DSL (docs/SHAPING.md), decided by the engine; written as in the engine's PacingScenariosTest. */
class PacingScenariosDslTest {

  /** n simultaneous calls through a guarded supplier: P or B each, no separator. */
  private static String viaGuard(Supplier<String> guarded, int n) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < n; i++) {
      try {
        out.append(guarded.get());
      } catch (RefusedException refused) {
        out.append('B');
      }
    }
    return out.toString();
  }

  @Test
  void pacingStep_ofTheDsl_pacesTheBurstThroughTheEngine() {
    Scenario s = new Scenario();
    Supplier<String> paced =
        Guard.of("R").qps(10).pacing(Duration.ofMillis(500)).on(s.engine).decorate(() -> "P");

    assertThat(viaGuard(paced, 8)).isEqualTo("PPPPPPBB");
    assertThat(s.sleeps).containsExactly(100_000_000L, 200_000_000L, 300_000_000L, 400_000_000L,
        500_000_000L);
  }

  @Test
  void warmUpAndPacingSteps_ofTheDsl_paceAtTheColdRate() {
    Scenario s = new Scenario();
    Supplier<String> paced = Guard.of("R").qps(10).warmUp(Duration.ofSeconds(10))
        .pacing(Duration.ofMillis(500)).on(s.engine).decorate(() -> "P");

    assertThat(viaGuard(paced, 3)).isEqualTo("PPB");
    assertThat(s.sleeps).containsExactly(300_000_000L);
  }

  @Test
  void warmUpPacing_sustainedSequentialCaller_spacingShrinksFromColdToCount() {
    ManualClock clock = new ManualClock(); // sleeping advances it: each wait really passes
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    Supplier<Long> paced = Guard.of("R").qps(10).warmUp(Duration.ofSeconds(10))
        .pacing(Duration.ofMillis(500)).on(engine).decorate(clock::nanoTime);
    List<Long> gapsMs = new ArrayList<>();
    long previous = paced.get();
    while (previous < 40_000_000_000L) {
      long admitted = paced.get(); // a sequential caller is never refused: it waits at most 300 ms
      gapsMs.add((admitted - previous) / 1_000_000);
      previous = admitted;
    }

    assertThat(gapsMs.get(0)).isEqualTo(300);
    assertThat(gapsMs.subList(gapsMs.size() - 50, gapsMs.size())).containsOnly(100L);
    for (int i = 1; i < gapsMs.size(); i++) {
      assertThat(gapsMs.get(i)).as("gap %d of %s", i, gapsMs)
          .isLessThanOrEqualTo(gapsMs.get(i - 1));
    }
  }
}
