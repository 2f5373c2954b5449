package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Warm-up (docs/SHAPING.md: the cold-start curve, no starvation, cold on first use) through the DSL and the engine: bursts of calls at the start of each
 * second, counting the admitted calls per second. The warm-up rule is declared by {@code
 * Guard.of(..).qps(..).warmUp(..)}; nothing here touches the controller directly.
 */
class WarmUpScenariosTest {

  private static final long T0 = Scenario.T0;
  private static final List<Integer> A4 =
      List.of(3, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 7, 10, 10, 10, 10);

  /** A guarded supplier on a fresh engine whose time is driven by {@link #second}. */
  private static final class Burst {
    final ManualClock clock;
    final Supplier<String> guarded;
    private final long firstMs;
    private long engineMs;

    Burst(ManualClock clock, long firstMs, Guard guard) {
      this.clock = clock;
      this.firstMs = firstMs;
      GuardEngine engine = GuardEngine.builder().clock(clock).build();
      this.guarded = guard.on(engine).decorate(() -> "ok");
    }

    /** Moves to first + k seconds (forward only) and makes n calls there; returns the passes. */
    int second(int k, int n) {
      long target = firstMs + k * 1000L;
      clock.advanceMillis(target - engineMs);
      engineMs = target;
      int passed = 0;
      for (int i = 0; i < n; i++) {
        try {
          guarded.get();
          passed++;
        } catch (RefusedException refused) {
          // counted as not passed
        }
      }
      return passed;
    }

    /** Passes per second for seconds {@code from .. from + seconds - 1}, n calls each. */
    List<Integer> curve(int from, int seconds, int n) {
      List<Integer> passes = new ArrayList<>();
      for (int k = from; k < from + seconds; k++) {
        passes.add(second(k, n));
      }
      return passes;
    }
  }

  private static Guard warmUp10() {
    return Guard.of("R").qps(10).warmUp(Duration.ofSeconds(10));
  }

  @Test
  void warmUp_fromCold_admitsA4CurvePerSecond() {
    Burst burst = new Burst(new ManualClock(), T0, warmUp10());

    assertThat(burst.curve(0, 16, 12)).isEqualTo(A4);
  }

  @Test
  void warmUp_coldFactor5_startsAtAFifthAndClimbsToCount() {
    // warningToken 25, maxToken 58: cold rate nextUp(2.0); tokens drain by the passes
    Burst burst = new Burst(new ManualClock(), T0,
        Guard.of("R").qps(10).warmUp(Duration.ofSeconds(10), 5));

    assertThat(burst.curve(0, 16, 12))
        .isEqualTo(List.of(2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4, 5, 8, 10, 10, 10));
  }

  @Test
  void warmUp_anyClockOrigin_admitsTheSameCurve() {
    long[] origins = {Long.MAX_VALUE - 3_000_000_000L, -7_000_000_000L, 200_000_000L, 0L};
    for (long origin : origins) {
      Burst atEngineStart = new Burst(ManualClock.startingAt(origin), 200, warmUp10());
      assertThat(atEngineStart.curve(0, 16, 12)).as("origin %d, first burst at 200 ms", origin)
          .isEqualTo(A4);
      Burst atT0 = new Burst(ManualClock.startingAt(origin), T0, warmUp10());
      assertThat(atT0.curve(0, 16, 12)).as("origin %d, first burst at T0", origin).isEqualTo(A4);
    }
  }

  @Test
  void warmUp_countBelowColdFactor_neverStarvesAndReachesCount() {
    // Q1: count 2, cold rate 2/3 per second; Sentinel admits nothing, ever.
    Burst burst =
        new Burst(new ManualClock(), T0, Guard.of("R").qps(2).warmUp(Duration.ofSeconds(10)));

    List<Integer> curve = burst.curve(0, 30, 5);

    assertThat(curve.subList(0, 3)).contains(1);
    assertThat(curve.subList(0, 16))
        .isEqualTo(List.of(1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 2, 2));
    assertThat(curve.subList(16, 30)).containsOnly(2);
  }

  @Test
  void warmUp_idleTwoSeconds_fallsPartlyBackAndWarmsAgain() {
    Burst burst = new Burst(new ManualClock(), T0, warmUp10());
    assertThat(burst.curve(0, 16, 12)).isEqualTo(A4);

    // seconds 16 and 17 without calls: +30 tokens from the warm level 40 gives 70 (cold is 100)
    assertThat(burst.curve(18, 6, 12)).isEqualTo(List.of(5, 6, 7, 9, 10, 10));
  }

  @Test
  void warmUp_idleTwentySeconds_isColdAgain() {
    Burst burst = new Burst(new ManualClock(), T0, warmUp10());
    assertThat(burst.curve(0, 16, 12)).isEqualTo(A4);

    // seconds 16 .. 35 without calls: the bucket refills to maxToken
    assertThat(burst.curve(36, 16, 12)).isEqualTo(A4);
  }

  @Test
  void warmUp_trafficBelowColdRate_coolsDown() {
    Burst burst = new Burst(new ManualClock(), T0, warmUp10());
    assertThat(burst.curve(0, 16, 12)).isEqualTo(A4);

    // 2 calls per second (below 10 div 3 = 3) for 20 s: tokens climb back to maxToken
    assertThat(burst.curve(16, 20, 2)).containsOnly(2);
    assertThat(burst.curve(36, 1, 12)).containsExactly(3);
  }
}
