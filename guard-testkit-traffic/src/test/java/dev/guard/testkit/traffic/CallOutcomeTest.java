package dev.guard.testkit.traffic;

import dev.guard.testkit.traffic.TrafficSimulator.Report.CallOutcome;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.guard.testkit.traffic.TrafficSimulator.Report.CallOutcome.Verdict;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CallOutcomeTest {

  @Test
  void finishedAt_pacedCall_isDecisionPlusWait() {
    CallOutcome outcome = new CallOutcome(Duration.ofMillis(100), Duration.ofMillis(300),
        Verdict.PASS, Duration.ofMillis(50));

    assertThat(outcome.finishedAt()).isEqualTo(Duration.ofMillis(350));
    assertThat(outcome.passed()).isTrue();
  }

  @Test
  void passed_blockedCall_false() {
    assertThat(new CallOutcome(Duration.ZERO, Duration.ZERO, Verdict.REFUSE, Duration.ZERO).passed())
        .isFalse();
  }

  @Test
  void constructor_decidedBeforeScheduled_rejectedNamingDecidedAt() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new CallOutcome(Duration.ofMillis(5), Duration.ofMillis(4),
            Verdict.PASS, Duration.ZERO))
        .withMessage("decidedAt must not be before scheduledAt PT0.005S, was PT0.004S");
  }

  @Test
  void constructor_negativeWait_rejectedNamingWaited() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new CallOutcome(Duration.ZERO, Duration.ZERO, Verdict.PASS,
            Duration.ofNanos(-1)))
        .withMessage("waited must not be negative, was PT-0.000000001S");
  }

  @Test
  void constructor_nullVerdict_throwsNamingVerdict() {
    assertThatNullPointerException()
        .isThrownBy(() -> new CallOutcome(Duration.ZERO, Duration.ZERO, null, Duration.ZERO))
        .withMessage("verdict");
  }
}
