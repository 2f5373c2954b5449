package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import dev.guard.api.rule.FlowRule;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.Entry;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** docs/BEHAVIOUR.md, "Rules": a guard declared again keeps its warm-up state; the rest is in the engine's ShapingReloadTest. */
class ShapingReloadDslTest {

  /** Passes per second for 12 calls at the start of seconds from .. from + seconds - 1. */
  private static List<Integer> perSecond(Scenario s, int from, int seconds) {
    List<Integer> passes = new ArrayList<>();
    for (int k = from; k < from + seconds; k++) {
      passes.add(s.at(k * 1000L).calls("R", 12).replace("B", "").length());
    }
    return passes;
  }

  @Test
  void guard_declaredAgainOnTheSameEngine_staysHot() {
    Scenario s = new Scenario();
    Guard declaration =
        Guard.of("R").entryType(EntryType.IN).qps(10).warmUp(Duration.ofSeconds(10));
    declaration.on(s.engine).decorate(() -> "first binding").get();
    assertThat(perSecond(s, 1, 16)).endsWith(10, 10, 10);

    Supplier<String> again = Guard.of("R").entryType(EntryType.IN).qps(10)
        .warmUp(Duration.ofSeconds(10)).on(s.engine).decorate(() -> "second binding");
    s.at(17_000);
    int passed = 0;
    for (int i = 0; i < 12; i++) {
      try {
        again.get();
        passed++;
      } catch (RefusedException refused) {
        // not passed
      }
    }
    assertThat(passed).isEqualTo(10);
  }
}
