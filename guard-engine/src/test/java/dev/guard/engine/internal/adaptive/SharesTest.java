package dev.guard.engine.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.AdaptiveConcurrencyRule;
import org.junit.jupiter.api.Test;

/** Capacity shares (docs/BEHAVIOUR.md, "Capacity shares") on a limit of 10: live 0.8, batch 0.2. */
class SharesTest {

  private final AdaptiveLimit limit = new AdaptiveLimit("R", AdaptiveConcurrencyRule.of("R")
      .withLimits(10, 10, 10).withShare("live", 0.8).withShare("batch", 0.2), 0);

  private int take(String origin, int n) {
    int taken = 0;
    for (int i = 0; i < n; i++) {
      taken += limit.tryAcquire(origin) >= 0 ? 1 : 0;
    }
    return taken;
  }

  @Test
  void idleShares_areBorrowed_upToTheWholeLimit() {
    assertThat(take("batch", 12)).isEqualTo(10);
    assertThat(limit.inFlight()).isEqualTo(10);
  }

  @Test
  void activeShare_isKeptForItsOrigin() {
    assertThat(take("live", 1)).isEqualTo(1);    // live asked: its unused 7 places are kept

    assertThat(take("batch", 10)).isEqualTo(2);  // batch has its 2, borrows nothing
    assertThat(take("live", 10)).isEqualTo(7);   // live gets the rest of its 8
    assertThat(limit.inFlight()).isEqualTo(10);
  }

  @Test
  void unlistedOrigins_shareWhatIsLeft_andBorrowOnlyIdleShares() {
    assertThat(take("live", 1) + take("batch", 1)).isEqualTo(2);

    assertThat(take("reports", 5)).isZero();     // the rest is 0; live and batch keep theirs
    assertThat(take("batch", 5)).isEqualTo(1);
  }

  @Test
  void givingPlacesBack_letsTheOwnerIn() {
    assertThat(take("batch", 10)).isEqualTo(10); // nobody else asked yet: batch borrows all
    assertThat(take("live", 1)).isZero();         // the limit is full

    limit.release(1);                             // one of batch's calls (group 1) ends
    assertThat(take("live", 1)).isEqualTo(1);
  }
}
