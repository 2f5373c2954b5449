package dev.guard.engine.internal.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class WarmUpProperties {

  /**
   * Constant overload: {@code count + excess} simultaneous calls once a second, at any engine time
   * (so at any phase within the second). Until the rule admits {@code count} per second, the
   * admitted rate never falls: the gap between seconds that admit something never grows (sparse
   * mode, cold rate below 1/s) and the number admitted in those seconds never decreases. The full
   * rate is reached, and then kept, within {@code 2·period + 3} seconds.
   */
  @Property(tries = 300)
  void decide_constantOverload_admittedRateNeverFallsUntilCountIsReached(
      @ForAll @IntRange(min = 1, max = 200) int count,
      @ForAll @IntRange(min = 1, max = 20) int periodSeconds,
      @ForAll @IntRange(min = 2, max = 6) int coldFactor,
      @ForAll @IntRange(min = 1, max = 20) int excess,
      @ForAll @LongRange(min = 0, max = 4_000_000_000L) long startMs) {
    ShapingDriver driver = new ShapingDriver(
        TestControllers.warmUp(count, Duration.ofSeconds(periodSeconds), coldFactor));
    int bound = 2 * periodSeconds + 3;

    List<Integer> perSecond = driver.perSecond(startMs, 0, bound + 3, count + excess);

    int reachedAt = perSecond.size();
    while (reachedAt > 0 && perSecond.get(reachedAt - 1) == count) {
      reachedAt--;
    }
    assertThat(reachedAt).as("second from which %s stays at %d", perSecond, count)
        .isLessThanOrEqualTo(bound);
    assertNeverFalls(perSecond.subList(0, reachedAt + 1));
  }

  private static void assertNeverFalls(List<Integer> warming) {
    List<Integer> admittingSeconds = new ArrayList<>();
    for (int k = 0; k < warming.size(); k++) {
      if (warming.get(k) > 0) {
        admittingSeconds.add(k);
      }
    }
    assertThat(admittingSeconds).as("admitting seconds of %s", warming).startsWith(0);
    for (int i = 2; i < admittingSeconds.size(); i++) {
      int gap = admittingSeconds.get(i) - admittingSeconds.get(i - 1);
      int previousGap = admittingSeconds.get(i - 1) - admittingSeconds.get(i - 2);
      assertThat(gap).as("gap growing in %s", warming).isLessThanOrEqualTo(previousGap);
    }
    for (int i = 1; i < admittingSeconds.size(); i++) {
      assertThat(warming.get(admittingSeconds.get(i)))
          .as("admitted count falling in %s", warming)
          .isGreaterThanOrEqualTo(warming.get(admittingSeconds.get(i - 1)));
    }
  }
}
