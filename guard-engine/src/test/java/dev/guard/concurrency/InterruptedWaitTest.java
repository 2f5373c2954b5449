package dev.guard.concurrency;

import static dev.guard.concurrency.Callers.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.concurrency.Callers.Call;
import dev.guard.concurrency.Callers.Outcome;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A call whose wait is interrupted is not admitted (FlowSlot): it is refused with the rule's
 * {@link RefusedException.Flow}, returns with its interrupt flag set, gives back what it reserved,
 * and leaves every gauge balanced.
 */
class InterruptedWaitTest {

  private static final long MS = 1_000_000L;
  private static final long T0 = 60_000 * MS;

  private final ManualClock clock = ManualClock.parking();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  InterruptedWaitTest() {
    clock.advanceNanos(T0);
  }

  private static FlowRule pacing() {
    return FlowRule.qps("R", 10).withShaping(FlowRule.Shaping.PACING)
        .withMaxQueueingTime(Duration.ofMillis(500));
  }

  private Entry enterR() {
    return engine.resource("R").entryType(EntryType.IN).enter();
  }

  private void assertBalanced(long attempts, long refusals) {
    NodeStats stats = engine.stats("R");
    assertThat(stats.concurrency()).isZero();
    assertThat(engine.inboundStats().concurrency()).isZero();
    assertThat(stats.totalRefused()).isEqualTo(refusals);
    assertThat(stats.totalPass() + stats.totalRefused()).isEqualTo(attempts);
  }

  private static void assertRefusedAndInterrupted(Outcome outcome) {
    assertThat(outcome.admitted()).isFalse();
    assertThat(outcome.refusal()).isInstanceOf(RefusedException.Flow.class);
    assertThat(outcome.interrupted()).as("interrupt flag on return").isTrue();
  }

  @Test
  void pacedWait_interrupted_refusedAndSlotGoesToTheNextCaller() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(pacing())));
    enterR().close(); // slot T0
    try (Callers callers = new Callers(clock)) {
      Call waiting = callers.start(this::enterR); // slot T0 + 100
      assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();

      waiting.thread.interrupt();
      assertRefusedAndInterrupted(waiting.await());
      assertThat(waiting.await().returnedAtNanos()).isEqualTo(T0);

      Call next = callers.start(this::enterR); // gets slot T0 + 100 again, not T0 + 200
      assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();
      clock.advanceMillis(100);
      assertThat(next.await().admitted()).isTrue();
      assertThat(next.await().returnedAtNanos()).isEqualTo(T0 + 100 * MS);
    }
    assertBalanced(3, 1);
    assertThat(engine.inboundStats().totalRequest()).isEqualTo(3);
  }

  @Test
  void pacedCall_interruptedBeforeWaiting_refusedWithFlagKept() {
    ManualClock advancing = new ManualClock();
    GuardEngine own = GuardEngine.builder().clock(advancing).build();
    own.apply(own.ruleSet().withRulesOf("R", List.of(pacing())));
    own.resource("R").enter().close(); // slot 0; the next call would wait 100 ms

    Thread.currentThread().interrupt();
    assertThatThrownBy(() -> own.resource("R").enter()).isInstanceOf(RefusedException.Flow.class);
    assertThat(Thread.interrupted()).as("interrupt flag on return (now cleared)").isTrue();

    long before = advancing.nanoTime();
    own.resource("R").enter().close(); // the freed slot: a 100 ms wait, performed by advancing the clock
    assertThat(advancing.nanoTime() - before).isEqualTo(100 * MS);
    assertThat(own.stats("R").concurrency()).isZero();
    assertThat(own.stats("R").totalRefused()).isEqualTo(1);
    assertThat(own.stats("R").totalPass()).isEqualTo(2);
  }

  @Test
  void borrowingWait_interrupted_refusedAndBorrowedPassGivenBack() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 2))));
    enterR().close();
    enterR().close();
    clock.advanceMillis(700); // the next bucket starts in 300 ms and may lend 2 passes
    try (Callers callers = new Callers(clock)) {
      Call borrower = callers.start(() -> engine.resource("R").entryType(EntryType.IN).permits(1).prioritized().enter());
      assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();

      borrower.thread.interrupt();
      assertRefusedAndInterrupted(borrower.await());

      Call[] again = {
        callers.start(() -> engine.resource("R").entryType(EntryType.IN).permits(1).prioritized().enter()),
        callers.start(() -> engine.resource("R").entryType(EntryType.IN).permits(1).prioritized().enter())
      };
      assertThat(clock.awaitSleepers(2, PATIENCE)).as("both passes can be borrowed again").isTrue();
      Call third = callers.start(() -> engine.resource("R").entryType(EntryType.IN).permits(1).prioritized().enter());
      assertThat(third.await().admitted()).isFalse();
      clock.advanceMillis(300);
      for (Call call : again) {
        assertThat(call.await().admitted()).isTrue();
        assertThat(call.await().returnedAtNanos()).isEqualTo(T0 + 1000 * MS);
      }
    }
    assertThat(engine.stats("R").passQps()).as("two borrowed passes arrived, not three")
        .isEqualTo(2.0);
    assertBalanced(6, 2);
  }
}
