package dev.guard.dashboard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.testkit.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The session table and the failed-login table stay within their caps. */
class BoundedMemoryTest {

  private final ManualClock clock = new ManualClock();

  @Test
  void loginThrottle_remembersAtMostItsCapOfAddressesAndForgetsTheLeastRecent() {
    LoginThrottle throttle = new LoginThrottle(clock::millis);
    for (int i = 0; i < 5; i++) {
      throttle.failed("10.0.0.1");
    }
    for (int i = 0; i < LoginThrottle.MAX_CLIENTS + 500; i++) {
      throttle.failed("addr-" + i);
    }

    assertThat(throttle.size()).isEqualTo(LoginThrottle.MAX_CLIENTS);
    assertThat(throttle.waitSeconds("10.0.0.1")).isZero();
  }

  @Test
  void sessions_keepAtMostTheirCapAndEndTheLeastRecentlyUsed() {
    Sessions sessions = new Sessions(clock::millis);
    String kept = sessions.open();
    String dropped = sessions.open();
    List<String> keys = new ArrayList<>();
    assertThat(sessions.use(kept)).isTrue();
    for (int i = 0; i < Sessions.MAX - 1; i++) {
      keys.add(sessions.open());
    }

    assertThat(sessions.size()).isEqualTo(Sessions.MAX);
    assertThat(sessions.use(dropped)).isFalse();
    assertThat(sessions.use(kept)).isTrue();
    assertThat(sessions.use(keys.get(0))).isTrue();
  }
}
