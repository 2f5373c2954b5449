package dev.guard.api.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AdaptiveConcurrencyRuleTest {

  @Test
  void of_hasTheDocumentedDefaults() {
    AdaptiveConcurrencyRule rule = AdaptiveConcurrencyRule.of("inventory");

    assertThat(rule.algorithm()).isEqualTo(AdaptiveConcurrencyRule.Algorithm.GRADIENT);
    assertThat(rule.initialLimit()).isEqualTo(20);
    assertThat(rule.minLimit()).isEqualTo(1);
    assertThat(rule.maxLimit()).isEqualTo(1000);
    assertThat(rule.window()).isEqualTo(Duration.ofMillis(100));
    assertThat(rule.slowerThan()).isZero();
  }

  @Test
  void withLimits_outOfOrder_namesTheFieldAndValue() {
    AdaptiveConcurrencyRule rule = AdaptiveConcurrencyRule.of("r");

    assertThatThrownBy(() -> rule.withLimits(5, 0, 10))
        .hasMessage("minLimit must be > 0, was 0");
    assertThatThrownBy(() -> rule.withLimits(5, 8, 6))
        .hasMessage("maxLimit must be >= minLimit (8), was 6");
    assertThatThrownBy(() -> rule.withLimits(50, 1, 10))
        .hasMessage("initialLimit must be in [minLimit, maxLimit] = [1, 10], was 50");
    assertThatThrownBy(() -> rule.withLimits(1, 1, 2_000_000_000))
        .hasMessage("maxLimit must be at most 1000000000, was 2000000000");
  }

  @Test
  void durations_mustBeWholeMillisecondsAndInRange() {
    AdaptiveConcurrencyRule rule = AdaptiveConcurrencyRule.of("r");

    assertThatThrownBy(() -> rule.withWindow(Duration.ZERO))
        .hasMessage("window must be positive, was PT0S");
    assertThatThrownBy(() -> rule.withWindow(Duration.ofNanos(1_500_000)))
        .hasMessage("window must be whole milliseconds, was PT0.0015S");
    assertThatThrownBy(() -> rule.withSlowerThan(Duration.ofMillis(-1)))
        .hasMessageStartingWith("slowerThan must");
    assertThatThrownBy(() -> rule.withSlowerThan(Duration.ofDays(2)))
        .hasMessage("slowerThan must be at most PT24H, was PT48H");
  }

  @Test
  void refusal_readsTheLimitWhenAsked_andNamesTheRule() {
    AdaptiveConcurrencyRule rule = AdaptiveConcurrencyRule.of("inventory");
    AtomicInteger limit = new AtomicInteger(12);
    RefusedException.AdaptiveConcurrency refused =
        new RefusedException.AdaptiveConcurrency("inventory", rule, limit::get);

    limit.set(9);

    assertThat(refused.limit()).isEqualTo(9);
    assertThat(refused.rule()).isSameAs(rule);
    assertThat(refused.retryAfter()).isEmpty();
    assertThat(RefusedException.Kind.of(refused))
        .isEqualTo(RefusedException.Kind.ADAPTIVE_CONCURRENCY);
    assertThat(RefusedException.Kind.ADAPTIVE_CONCURRENCY.tag()).isEqualTo("adaptive-concurrency");
    assertThat(refused.getMessage()).startsWith("adaptive concurrency refused a call to 'inventory'");
  }
}
