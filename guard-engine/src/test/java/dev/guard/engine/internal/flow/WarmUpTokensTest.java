package dev.guard.engine.internal.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.guard.testing.Together;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WarmUpTokensTest {

  private static final long T0 = 60_000L;

  @Test
  void allowedQps_cold_isCountOverColdFactor() {
    assertThat(new WarmUpTokens(10, Duration.ofSeconds(10), 5).allowedQps())
        .isCloseTo(2.0, within(1e-12));
  }

  @Test
  void allowedQps_beforeFirstSync_isColdRate() {
    WarmUpTokens tokens = new WarmUpTokens(10, Duration.ofSeconds(10), 3);

    assertThat(tokens.storedTokens()).isEqualTo(100);
    assertThat(tokens.allowedQps()).isCloseTo(10.0 / 3, within(1e-12));
  }

  @Test
  void sync_firstUseAtEngineTimeZero_startsCold() {
    WarmUpTokens tokens = new WarmUpTokens(10, Duration.ofSeconds(10), 3);

    tokens.sync(0, 0);

    assertThat(tokens.storedTokens()).isEqualTo(100);
  }

  @Test
  void sync_firstUseWithEarlierTraffic_subtractsPreviousPasses() {
    WarmUpTokens tokens = new WarmUpTokens(10, Duration.ofSeconds(10), 3);

    tokens.sync(T0, 1);

    assertThat(tokens.storedTokens()).isEqualTo(99);
  }

  @Test
  void sync_twiceInOneSecond_drainsOnce() {
    WarmUpTokens tokens = new WarmUpTokens(10, Duration.ofSeconds(10), 3);
    tokens.sync(T0, 0);

    tokens.sync(T0 + 1000, 10);
    tokens.sync(T0 + 1999, 10);

    assertThat(tokens.storedTokens()).isEqualTo(90);
  }

  @Test
  void sync_olderSecondAfterNewer_isIgnored() {
    WarmUpTokens tokens = new WarmUpTokens(10, Duration.ofSeconds(10), 3);
    tokens.sync(T0 + 2000, 0);

    tokens.sync(T0 + 1000, 10);

    assertThat(tokens.storedTokens()).isEqualTo(100);
  }

  @Test
  void sync_belowWarningLine_refillsByElapsedTimesCount() {
    WarmUpTokens tokens = new WarmUpTokens(10, Duration.ofSeconds(10), 3);
    tokens.sync(T0, 60); // 100 - 60 = 40

    tokens.sync(T0 + 3000, 5);

    assertThat(tokens.storedTokens()).isEqualTo(40 + 30 - 5);
  }

  @Test
  void sync_aboveWarningLineWithTrafficAtColdRate_doesNotRefill() {
    WarmUpTokens tokens = new WarmUpTokens(10, Duration.ofSeconds(10), 3);
    tokens.sync(T0, 20); // 80

    tokens.sync(T0 + 5000, 3); // 3 is not below 10 div 3

    assertThat(tokens.storedTokens()).isEqualTo(77);
  }

  @Test
  void allowedQps_noWarmUpBand_isCount() {
    WarmUpTokens tokens = new WarmUpTokens(1, Duration.ofSeconds(1), 3);
    tokens.sync(T0, 0);

    assertThat(tokens.maxToken()).isEqualTo(tokens.warningToken());
    assertThat(tokens.allowedQps()).isEqualTo(1.0);
  }

  @Test
  void sync_concurrentCallersInOneSecond_drainOnce() throws Exception {
    WarmUpTokens tokens = new WarmUpTokens(10, Duration.ofSeconds(10), 3);
    tokens.sync(T0, 0);
    int threads = 8;
    Together.run(threads, thread -> {
      for (int k = 0; k < 1000; k++) {
        tokens.sync(T0 + 1000 + k % 1000, 7);
      }
    });

    assertThat(tokens.storedTokens()).isEqualTo(93);
  }

  @Test
  void constructor_negativeCount_throwsNamingTheValue() {
    assertThatThrownBy(() -> new WarmUpTokens(-1, Duration.ofSeconds(1), 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("count must be finite and >= 0, was -1.0");
  }

  @Test
  void constructor_coldFactorOne_throwsNamingTheValue() {
    assertThatThrownBy(() -> new WarmUpTokens(1, Duration.ofSeconds(1), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("coldFactor must be > 1, was 1");
  }

  @Test
  void constructor_negativePeriod_throwsNamingTheOption() {
    assertThatThrownBy(() -> new WarmUpTokens(1, Duration.ofSeconds(-1), 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("warmUpPeriod must not be negative");
  }
}
