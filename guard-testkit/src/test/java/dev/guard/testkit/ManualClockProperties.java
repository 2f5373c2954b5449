package dev.guard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of a manual clock's reading over generated start times and advances. */
class ManualClockProperties {

  private static final BigInteger MILLION = BigInteger.valueOf(1_000_000L);

  /** One advance, made through one of the three advance methods or an advancing sleep. */
  record Step(String via, long nanos) {

    void applyTo(ManualClock clock) throws InterruptedException {
      switch (via) {
        case "nanos" -> clock.advanceNanos(nanos);
        case "millis" -> clock.advanceMillis(nanos / 1_000_000L);
        case "duration" -> clock.advance(Duration.ofNanos(nanos));
        case "sleep" -> clock.sleep(nanos);
        default -> throw new AssertionError(via);
      }
    }

    long amount() {
      return via.equals("millis") ? nanos / 1_000_000L * 1_000_000L : nanos;
    }
  }

  @Provide
  Arbitrary<Long> starts() {
    return Arbitraries.oneOf(
        Arbitraries.longs(),
        Arbitraries.longs().between(Long.MAX_VALUE - 10_000_000_000L, Long.MAX_VALUE),
        Arbitraries.longs().between(Long.MIN_VALUE, Long.MIN_VALUE + 10_000_000_000L),
        Arbitraries.longs().between(-10_000_000_000L, 10_000_000_000L),
        Arbitraries.of(Long.MIN_VALUE, -1L, 0L, Long.MAX_VALUE));
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Long> amounts = Arbitraries.oneOf(
        Arbitraries.longs().between(0, Long.MAX_VALUE),
        Arbitraries.longs().between(0, 10_000_000_000L));
    Arbitrary<String> vias = Arbitraries.of("nanos", "millis", "duration", "sleep");
    return amounts.flatMap(n -> vias.map(v -> new Step(v, n))).list().ofMaxSize(30);
  }

  @Property
  void advances_anyStartAndNonNegativeSteps_elapsedEqualsSumModulo2To64(
      @ForAll("starts") long start, @ForAll("steps") List<Step> steps)
      throws InterruptedException {
    ManualClock clock = ManualClock.startingAt(start);
    long sum = 0;

    for (Step step : steps) {
      step.applyTo(clock);
      sum += step.amount(); // wraps like the clock: both are sums modulo 2^64
    }

    assertThat(clock.nanoTime() - start).isEqualTo(sum);
  }

  @Property
  void millis_anyReading_isFloorOfNanosOverAMillion(@ForAll("starts") long start) {
    ManualClock clock = ManualClock.startingAt(start);

    BigInteger floorNanos = BigInteger.valueOf(clock.millis()).multiply(MILLION);

    // floor: the whole milliseconds lie at or below the reading, less than one millisecond away
    BigInteger remainder = BigInteger.valueOf(start).subtract(floorNanos);
    assertThat(remainder).isGreaterThanOrEqualTo(BigInteger.ZERO).isLessThan(MILLION);
  }
}
