package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.spi.TimeSource;
import dev.guard.api.CircuitBreaker;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The demo's {@code inventory} endpoint, driven on a fake clock with its demo traffic (one call
 * every 25 ms): its dependency is down from 4 s to 8 s, and its breaker opens, probes and closes.
 */
class InventoryEndpointTest {

  private static final long MS = 1_000_000L;

  /** A clock that moves only when the test sets it. */
  private static final class FakeClock implements TimeSource {
    long nanos;

    @Override
    public long nanoTime() {
      return nanos;
    }

    @Override
    public void sleep(long waitNanos) {
      nanos += Math.max(0, waitNanos);
    }
  }

  @Test
  void outage_opensTheBreaker_probesEveryTwoSeconds_andClosesWhenTheDependencyIsBack() {
    FakeClock clock = new FakeClock();
    List<String> transitions = new ArrayList<>();
    GuardEngine engine = GuardEngine.builder().clock(clock).listener(new EngineListener() {
      @Override
      public void onBreakerStateChanged(CircuitBreaker.Transition t) {
        transitions.add(t.from() + "->" + t.to() + " at " + t.engineTimeMs());
      }
    }).build();
    Endpoint inventory = Shop.endpoints(engine).stream()
        .filter(endpoint -> endpoint.name().equals("inventory")).findFirst().orElseThrow();
    long[] passed = new long[12];
    long[] refused = new long[12];
    Runnable call = inventory.guard().decorateRunnable(() -> {
      if (inventory.failsAt(clock.nanos)) {
        throw new IllegalStateException("dependency down");
      }
    });

    for (long at = 0; at < 12_000 * MS; at += inventory.period().toNanos()) {
      clock.nanos = at;
      int second = (int) (at / (1000 * MS));
      try {
        call.run();
        passed[second]++;
      } catch (IllegalStateException failed) {
        passed[second]++;
      } catch (RefusedException e) {
        refused[second]++;
      }
    }

    assertThat(transitions).containsExactly(
        "CLOSED->OPEN at 4500",
        "OPEN->HALF_OPEN at 6500", "HALF_OPEN->OPEN at 6500",
        "OPEN->HALF_OPEN at 8500", "HALF_OPEN->CLOSED at 8500");
    assertThat(passed).containsExactly(40, 40, 40, 40, 21, 0, 1, 0, 20, 40, 40, 40);
    assertThat(refused).containsExactly(0, 0, 0, 0, 19, 40, 39, 40, 20, 0, 0, 0);
  }

  @Test
  void failsAt_coversTheOutageOnly() {
    Endpoint inventory = Shop.endpoints(GuardEngine.builder().build()).stream()
        .filter(endpoint -> endpoint.name().equals("inventory")).findFirst().orElseThrow();

    assertThat(inventory.failsAt(Duration.ofMillis(3999).toNanos())).isFalse();
    assertThat(inventory.failsAt(Duration.ofSeconds(4).toNanos())).isTrue();
    assertThat(inventory.failsAt(Duration.ofMillis(7999).toNanos())).isTrue();
    assertThat(inventory.failsAt(Duration.ofSeconds(8).toNanos())).isFalse();
  }

  @Test
  void otherEndpoints_neverFail() {
    for (Endpoint endpoint : Shop.endpoints(GuardEngine.builder().build())) {
      if (!endpoint.name().equals("inventory")) {
        assertThat(endpoint.failsAt(Duration.ofSeconds(5).toNanos())).as(endpoint.name()).isFalse();
      }
    }
  }
}
