package dev.guard.concurrency;

import static dev.guard.concurrency.Callers.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.concurrency.Callers.Call;
import dev.guard.concurrency.Callers.Outcome;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pacing with real threads on a parking clock: admitted calls wait through the engine's time
 * source and return only once the test has advanced the clock to their slot; refused calls never
 * wait; and a waiting call holds nothing that other calls need.
 */
class PacingBurstTest {

  private static final long MS = 1_000_000L;
  private static final long T0 = 60_000 * MS;

  private final ManualClock clock = ManualClock.parking();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  PacingBurstTest() {
    clock.advanceNanos(T0);
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 10).withShaping(FlowRule.Shaping.PACING)
        .withMaxQueueingTime(Duration.ofMillis(500)))));
  }

  private Entry enterR() {
    return engine.resource("R").entryType(EntryType.IN).enter();
  }

  @Test
  void burst_tenThreads_sixAdmittedAtTheirSlotsAndFourRefusedAtOnce() throws Exception {
    try (Callers callers = new Callers(clock)) {
      callers.startTogether(10, this::enterR);

      assertThat(clock.awaitSleepers(5, PATIENCE)).isTrue();
      int admittedAtOnce = 0;
      for (int i = 0; i < 5; i++) {
        Outcome immediate = callers.nextFinished();
        assertThat(immediate.returnedAtNanos()).isEqualTo(T0);
        if (immediate.admitted()) {
          admittedAtOnce++;
        } else {
          assertThat(immediate.refusal()).isInstanceOf(RefusedException.Flow.class);
        }
      }
      assertThat(admittedAtOnce).as("calls admitted without waiting").isEqualTo(1);
      assertThat(clock.sleepers()).isEqualTo(5);

      for (int k = 1; k <= 5; k++) {
        clock.advanceMillis(99);
        assertThat(clock.sleepers()).as("before slot %d", k).isEqualTo(6 - k);
        assertThat(callers.anyFinishedUntaken()).isFalse();
        clock.advanceMillis(1);
        assertThat(clock.sleepers()).as("at slot %d", k).isEqualTo(5 - k);
        Outcome released = callers.nextFinished();
        assertThat(released.admitted()).isTrue();
        assertThat(released.returnedAtNanos()).isEqualTo(T0 + k * 100 * MS);
      }
    }
    assertThat(engine.stats("R").totalPass()).isEqualTo(6);
    assertThat(engine.stats("R").totalRefused()).isEqualTo(4);
    assertThat(engine.stats("R").concurrency()).isZero();
    assertThat(engine.inboundStats().concurrency()).isZero();
  }

  @Test
  void waitingCall_holdsNoLock_othersEnterAndSameResourceGetsItsOwnDecision() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf("S", List.of(FlowRule.qps("S", 100))));
    enterR().close(); // takes the slot at T0 without waiting
    try (Callers callers = new Callers(clock)) {
      Call first = callers.start(this::enterR);
      assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();

      Call meanwhile = callers.start(() -> {
        engine.resource("S").enter().close();
        engine.apply(engine.ruleSet().withRulesOf("S", List.of(FlowRule.qps("S", 50))));
        engine.resource("T").enter().close();
        return engine.resource("R").entryType(EntryType.IN).permits(0).enter(); // no permits: passes pacing untouched
      });
      assertThat(meanwhile.await().admitted()).isTrue();
      assertThat(meanwhile.await().returnedAtNanos()).isEqualTo(T0);

      Call second = callers.start(this::enterR);
      assertThat(clock.awaitSleepers(2, PATIENCE)).as("second call waits on its own slot").isTrue();

      clock.advanceMillis(100);
      assertThat(first.await().returnedAtNanos()).isEqualTo(T0 + 100 * MS);
      assertThat(clock.sleepers()).isEqualTo(1);
      clock.advanceMillis(100);
      assertThat(second.await().returnedAtNanos()).isEqualTo(T0 + 200 * MS);
      assertThat(first.await().admitted()).isTrue();
      assertThat(second.await().admitted()).isTrue();
    }
    assertThat(engine.stats("R").concurrency()).isZero();
    assertThat(engine.stats("S").totalPass()).isEqualTo(1);
  }
}
