package dev.guard.properties;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

/**
 * Clock start readings for the engine's properties: the distribution of the test kit's {@code
 * FlowArbitraries.clockStarts()} (near {@code Long.MAX_VALUE}, so runs wrap the counter, near
 * {@code Long.MIN_VALUE}, just below zero, zero and any {@code long}), which sits above the engine
 * in guard-testkit-traffic and so cannot be used here.
 */
final class ClockStarts {

  private static final long TWO_MINUTES = 120_000_000_000L;

  private ClockStarts() {}

  static Arbitrary<Long> any() {
    return Arbitraries.frequencyOf(List.of(
        Tuple.of(3, Arbitraries.longs().between(Long.MAX_VALUE - TWO_MINUTES, Long.MAX_VALUE)),
        Tuple.of(3, Arbitraries.longs().between(Long.MIN_VALUE, Long.MIN_VALUE + TWO_MINUTES)),
        Tuple.of(3, Arbitraries.longs().between(-TWO_MINUTES, -1)),
        Tuple.of(1, Arbitraries.just(0L)),
        Tuple.of(2, Arbitraries.longs())));
  }
}
