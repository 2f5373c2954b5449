package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointTest {

  private static Endpoint endpoint(Duration period, int burst, Duration work) {
    return new Endpoint("e", "qps(1)", Guard.of("e").qps(1), period, burst, work, "watch");
  }

  @Test
  void traffic_steadyInstantCalls_isTheRate() {
    Endpoint search = endpoint(Duration.ofNanos(12_500_000), 1, Duration.ZERO);

    assertThat(search.offeredPerSecond()).isCloseTo(80.0, within(1e-9));
    assertThat(search.traffic()).isEqualTo("80 calls/s");
  }

  @Test
  void traffic_burstsOfSlowCalls_describesBoth() {
    Endpoint endpoint = endpoint(Duration.ofMillis(500), 12, Duration.ofMillis(100));

    assertThat(endpoint.traffic())
        .isEqualTo("bursts of 12 every 500 ms (24 calls/s), each busy 100 ms");
  }

  @Test
  void callers_takenInTurn_andListedOncePerUser() {
    Endpoint endpoint = new Endpoint("e", "perValue(0, 1)", Guard.of("e").perValue(0, 1),
        Duration.ofMillis(10), 1, Duration.ZERO, "watch", List.of("a", "b", "a"));

    assertThat(endpoint.caller(0)).isEqualTo("a");
    assertThat(endpoint.caller(4)).isEqualTo("b");
    assertThat(endpoint.users()).containsExactly("a", "b");
    assertThat(endpoint.traffic()).isEqualTo("100 calls/s from 2 users");
  }

  @Test
  void constructor_zeroPeriod_isRejected() {
    assertThatThrownBy(() -> endpoint(Duration.ZERO, 1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("period must be positive, was PT0S");
  }

  @Test
  void constructor_zeroBurst_isRejected() {
    assertThatThrownBy(() -> endpoint(Duration.ofMillis(1), 0, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("burst must be > 0, was 0");
  }

  @Test
  void shopEndpoints_eachGuard_declaresOneRuleOnItsOwnResource() {
    for (Endpoint endpoint : Shop.endpoints(GuardEngine.builder().build())) {
      assertThat(endpoint.guard().rules())
          .as(endpoint.name())
          .singleElement()
          .satisfies(rule -> assertThat(rule.resource()).isEqualTo(endpoint.name()));
    }
  }
}
