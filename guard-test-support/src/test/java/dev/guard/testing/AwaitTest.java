package dev.guard.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {

  private static final Duration SHORT = Duration.ofMillis(50);

  @Test
  void until_conditionThatHolds_returns() {
    AtomicInteger checks = new AtomicInteger();
    Await.until("the third check", Duration.ofSeconds(10), () -> checks.incrementAndGet() == 3);
    assertThat(checks).hasValue(3);
  }

  @Test
  void until_conditionThatNeverHolds_failsNamingWhatItWaitedFor() {
    assertThatThrownBy(() -> Await.until("the moon to turn blue", SHORT, () -> false))
        .isInstanceOf(AssertionError.class)
        .hasMessage("waited 50 ms for the moon to turn blue; it did not happen");
  }

  @Test
  void value_returnsTheFirstAcceptedReading() {
    AtomicInteger reads = new AtomicInteger();
    assertThat(Await.value("a reading of 4", Duration.ofSeconds(10), reads::incrementAndGet,
        n -> n >= 4)).isEqualTo(4);
  }

  @Test
  void value_neverAccepted_failsShowingTheLastReading() {
    assertThatThrownBy(() -> Await.value("an even number", SHORT, () -> 7, n -> n % 2 == 0))
        .isInstanceOf(AssertionError.class)
        .hasMessage("waited 50 ms for an even number; it did not happen (last reading: 7)");
  }

  @Test
  void until_checkThrowingAnAssertion_failsAtOnceWithIt() {
    AssertionError wrong = new AssertionError("answered OK");
    assertThatThrownBy(() -> Await.until("an outage", Duration.ofSeconds(10), () -> {
      throw wrong;
    })).isSameAs(wrong);
  }

  @Test
  void until_checkThrowingCheckedException_failsNamingWhatItWaitedFor() {
    IOException broken = new IOException("connection reset");
    assertThatThrownBy(() -> Await.until("the server's answer", Duration.ofSeconds(10), () -> {
      throw broken;
    })).isInstanceOf(AssertionError.class).hasCause(broken)
        .hasMessageContaining("while waiting for the server's answer");
  }

  @Test
  void until_noPatience_isRefusedNamingIt() {
    assertThatThrownBy(() -> Await.until("x", Duration.ZERO, () -> true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("patience must be > 0, was PT0S");
  }
}
