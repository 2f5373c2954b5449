package dev.guard.engine.internal.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.EntryType;
import org.junit.jupiter.api.Test;

class CallGrantsTest {

  /** A call object as the call path reuses it: {@code begin} starts each use. */
  private static final class ReusedCall extends Call {
    ReusedCall() {
      super(EntryType.OUT);
    }

    void nextUse() {
      begin(0L, null);
    }
  }

  @Test
  void grantsKeptInOneUse_areReadBackPerSlot() {
    ReusedCall call = new ReusedCall();
    call.nextUse();
    Object reservation = new Object();

    call.grantCursor(2);
    call.keepGrantBits(5L);
    call.keepGrant(reservation);

    assertThat(call.grantBits()).isEqualTo(5L);
    assertThat(call.grant()).isSameAs(reservation);
    call.grantCursor(3);
    assertThat(call.grantBits()).isZero();
    assertThat(call.grant()).isNull();
  }

  @Test
  void nextUse_seesNoneOfTheLastUsesGrants() {
    ReusedCall call = new ReusedCall();
    call.nextUse();
    for (int slot = 0; slot < Chain.MAX_SLOTS; slot++) {
      call.grantCursor(slot);
      call.keepGrantBits(slot + 1L);
      call.keepGrant("grant " + slot);
    }

    call.nextUse();

    for (int slot = 0; slot < Chain.MAX_SLOTS; slot++) {
      call.grantCursor(slot);
      assertThat(call.grantBits()).as("bits of slot %d", slot).isZero();
      assertThat(call.grant()).as("grant of slot %d", slot).isNull();
    }
  }

  @Test
  void keepingNoGrant_dropsTheOneKeptEarlierInTheSameUse() {
    ReusedCall call = new ReusedCall();
    call.nextUse();
    call.grantCursor(1);
    call.keepGrant("held");

    call.keepGrant(null);

    assertThat(call.grant()).isNull();
  }
}
