package dev.guard.engine.internal.pervalue;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * The token bucket decides exactly as the formula computed with unbounded integers, for any
 * threshold and burst up to the token range, any period up to a day and idle times of
 * months (engine time up to 19 years): 64-bit arithmetic never overflows or loses a token.
 */
class TokenBucketGateProperties {

  private static final long MS = 1_000_000L;

  record Call(long gapMs, int permits) {}

  @Provide
  Arbitrary<List<Call>> calls() {
    Arbitrary<Long> gaps = Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.just(0L)),
        Tuple.of(4, Arbitraries.longs().between(0, 5_000)),
        Tuple.of(1, Arbitraries.longs().between(0, 100_000_000L)),
        Tuple.of(1, Arbitraries.longs().between(0, 10_000_000_000L)));
    Arbitrary<Integer> permits = Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.integers().between(0, 3)),
        Tuple.of(1, Arbitraries.integers().between(0, (1 << 24) + 10)));
    return Combinators.combine(gaps, permits).as(Call::new).list().ofMaxSize(60);
  }

  @Provide
  Arbitrary<Integer> thresholds() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.integers().between(0, 10)),
        Tuple.of(1, Arbitraries.integers().between(0, (1 << 24) - 1)));
  }

  @Property(tries = 300)
  void decisions_matchTheUnboundedFormula(
      @ForAll("thresholds") int threshold,
      @ForAll @IntRange(min = 0, max = 20) int burstWish,
      @ForAll @LongRange(min = 1, max = 86_400_000L) long periodMs,
      @ForAll @LongRange(min = 0, max = 1_000_000_000L) long startMs,
      @ForAll("calls") List<Call> calls) {
    int burst = (int) Math.min(burstWish, (1 << 24) - 1 - (long) threshold);
    TokenBucketGate gate = new TokenBucketGate(periodMs, burst);
    ValueState state = null;
    BigInteger max = BigInteger.valueOf((long) threshold + burst);
    BigInteger t = BigInteger.valueOf(threshold);
    BigInteger d = BigInteger.valueOf(periodMs);
    BigInteger lastRefill = null;
    BigInteger tokens = null;
    long now = startMs;
    for (Call call : calls) {
      now += call.gapMs();
      BigInteger n = BigInteger.valueOf(call.permits());
      boolean expected;
      if (lastRefill == null) { // a value's period starts at its first call, admitted or not
        lastRefill = BigInteger.valueOf(now);
        tokens = max;
      }
      if (threshold == 0 || n.compareTo(max) > 0) {
        expected = false;
      } else {
        BigInteger elapsed = BigInteger.valueOf(now).subtract(lastRefill);
        BigInteger left;
        BigInteger refill = lastRefill;
        if (elapsed.compareTo(d) > 0) {
          BigInteger earned = elapsed.multiply(t).divide(d);
          left = earned.add(tokens).compareTo(max) > 0
              ? max.subtract(n) : tokens.add(earned).subtract(n);
          refill = BigInteger.valueOf(now);
        } else {
          left = tokens.subtract(n);
        }
        expected = left.signum() >= 0;
        if (expected) {
          tokens = left;
          lastRefill = refill;
        }
      }
      if (state == null) {
        state = new ValueState(threshold, gate.initialBits(threshold, now * MS));
      }
      assertThat(gate.admits(state, threshold, call.permits(), now * MS))
          .as("check at %d ms", now).isEqualTo(expected);
      assertThat(gate.take(state, call.permits(), now * MS) == 0)
          .as("take at %d ms", now).isEqualTo(expected);
    }
  }
}
