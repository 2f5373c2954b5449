package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardedResource;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The per-value acceptance scenarios A15–A20 through the engine, on the manual clock (T0 =
 * 60,000 ms). Rows marked † in the scenarios are where guard deliberately differs from the
 * reference model: check-then-commit for collections, and negative indexes resolved per call; the
 * expected values here are guard's (docs/BEHAVIOUR.md, "Per-value limits").
 */
class PerValueScenariosTest {

  private final Scenario s = new Scenario();
  private final GuardedResource r = s.engine.resource("R").entryType(EntryType.IN);

  private void load(PerValueRule... rules) {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rules)));
  }

  /** One call with these arguments: "P" or "B". */
  private String call(Object... args) {
    try (Entry ignored = r.enter(args)) {
      return "P";
    } catch (RefusedException refused) {
      assertThat(refused).isInstanceOf(RefusedException.PerValue.class);
      return "B";
    }
  }

  /** One call with one argument once the clock is at T0 + offset. */
  private String callAt(long offsetMs, Object value) {
    s.at(offsetMs);
    return call(value);
  }

  /** n calls with one argument at the current instant. */
  private String calls(Object value, int n) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < n; i++) {
      out.append(call(value));
    }
    return out.toString();
  }

  @Test
  void a15_tokenBucket_refillsOnlyAfterAFullPeriod() {
    load(PerValueRule.qps("R", 0, 5));

    assertThat(calls("A", 6)).isEqualTo("PPPPPB");
    assertThat(call("B")).isEqualTo("P");
    assertThat(callAt(1000, "A")).as("1000 is not > 1000").isEqualTo("B");
    s.at(1001);
    assertThat(calls("A", 6)).as("refill ⌊1001·5/1000⌋ = 5").isEqualTo("PPPPPB");
    assertThat(call((Object) null)).isEqualTo("P");
    assertThat(call()).isEqualTo("P");
  }

  @Test
  void a15_tokenBucket_sixtySecondPeriod() {
    load(PerValueRule.qps("R", 0, 5).withPeriod(Duration.ofSeconds(60)));

    assertThat(calls("A", 6)).isEqualTo("PPPPPB");
    assertThat(callAt(1000, "A")).isEqualTo("B");
    assertThat(callAt(11_000, "A")).isEqualTo("B");
    assertThat(callAt(41_000, "A")).isEqualTo("B");
    s.at(71_000);
    assertThat(calls("A", 6)).as("refill ⌊71000·5/60000⌋ = 5").isEqualTo("PPPPPB");
  }

  @Test
  void a16_burst_banksUpToCountPlusBurst() {
    load(PerValueRule.qps("R", 0, 5).withBurst(3));
    int[] passes = new int[5];
    long[] rounds = {0, 1002, 2004, 4004, 5006};

    for (int i = 0; i < rounds.length; i++) {
      s.at(rounds[i]);
      passes[i] = calls("A", 10).replace("B", "").length();
    }

    assertThat(passes).containsExactly(8, 5, 5, 8, 5);
  }

  @Test
  void a17_exceptionItems_haveTheirOwnThreshold() {
    load(PerValueRule.qps("R", 0, 5).withException("VIP", 10).withException("BAN", 0));

    assertThat(calls("VIP", 12)).isEqualTo("PPPPPPPPPPBB");
    assertThat(calls("X", 12)).isEqualTo("PPPPPBBBBBBB");
    assertThat(call("BAN")).isEqualTo("B");
  }

  @Test
  void a18_collectionsAndArrays_checkEveryElement_refusalConsumesNothing() {
    load(PerValueRule.qps("R", 0, 1));

    assertThat(call(List.of("a", "b", "c"))).isEqualTo("P");
    assertThat(call(List.of("a", "b", "c"))).isEqualTo("B");
    assertThat(call(List.of("d", "a"))).isEqualTo("B");
    assertThat(call(List.of("d"))).as("† check-then-commit: d was not consumed").isEqualTo("P");
    assertThat(call((Object) new String[] {"e", "f"})).isEqualTo("P");
    assertThat(call((Object) new String[] {"e"})).isEqualTo("B");
  }

  @Test
  void a19_negativeIndex_resolvesPerCall() {
    load(PerValueRule.qps("R", -1, 1));

    assertThat(call("x", "y", "z")).as("value z").isEqualTo("P");
    assertThat(call("x", "y", "z")).isEqualTo("B");
    assertThat(call("z", "q")).as("† value q, first sighting").isEqualTo("P");
    assertThat(call("z")).as("† value z").isEqualTo("B");
    assertThat(call("q", "r", "z")).as("value z").isEqualTo("B");
    assertThat(s.engine.rules("R")).containsExactly(PerValueRule.qps("R", -1, 1));
  }

  @Test
  void a19_indexBeyondTheArguments_alwaysPasses() {
    load(PerValueRule.qps("R", -100, 1));

    assertThat(call("x", "y", "z") + call("x", "y", "z") + call("x", "y", "z")).isEqualTo("PPP");
  }

  @Test
  void a20_concurrencyPerValue_countsRunningCalls() {
    load(PerValueRule.concurrency("R", 0, 1));

    Entry held = r.enter("A");
    assertThat(call("A")).isEqualTo("B");
    assertThat(call("B")).isEqualTo("P");
    held.close();
    assertThat(call("A")).isEqualTo("P");
    assertThat(s.engine.stats("R").concurrency()).isZero();
  }
}
