package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.spi.TimeSource;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The demo's per-user endpoint on a manual clock: one noisy user is limited, the others pass. */
class ShopTest {

  /** A clock that moves only when told (a sleep moves it too). */
  private static final class Clock implements TimeSource {
    private long nanos;

    @Override
    public long nanoTime() {
      return nanos;
    }

    @Override
    public void sleep(long wait) {
      nanos += Math.max(0, wait);
    }

    void advance(Duration step) {
      nanos += step.toNanos();
    }
  }

  @Test
  void profile_noisyUserIsHeldToItsLimit_whileTheOthersAllPass() {
    Clock clock = new Clock();
    Endpoint profile = Shop.endpoints(GuardEngine.builder().clock(clock).build()).stream()
        .filter(endpoint -> endpoint.name().equals("profile")).findFirst().orElseThrow();
    Map<String, Integer> passed = new HashMap<>();
    Map<String, Integer> refused = new HashMap<>();
    int seconds = 10;
    long calls = seconds * Duration.ofSeconds(1).toNanos() / profile.period().toNanos();

    for (long n = 0; n < calls; n++) {
      String user = profile.caller(n);
      try {
        profile.guard().callWithKey(user, () -> Boolean.TRUE);
        passed.merge(user, 1, Integer::sum);
      } catch (RefusedException.PerValue refusal) {
        assertThat(refusal.value()).isEqualTo(user);
        refused.merge(user, 1, Integer::sum);
      }
      clock.advance(profile.period());
    }

    assertThat(refused).containsOnlyKeys("noisy");
    assertThat(passed.get("noisy")).as("5 a second, refilled once a full second has passed")
        .isBetween(5 * seconds - 5, 5 * seconds);
    for (String user : new String[] {"ann", "bob", "cyd", "dee"}) {
      assertThat(passed.get(user)).as(user).isEqualTo((int) calls / 10);
    }
  }
}
