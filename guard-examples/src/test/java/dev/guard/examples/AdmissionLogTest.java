package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class AdmissionLogTest {

  private static final long MS = 1_000_000L;

  @Test
  void medianGapMillis_fewerThanTwoAdmissions_isEmpty() {
    AdmissionLog log = new AdmissionLog(0);
    assertThat(log.medianGapMillis()).isEmpty();

    log.record(5 * MS);

    assertThat(log.medianGapMillis()).isEmpty();
  }

  @Test
  void medianGapMillis_evenSpacing_isTheSpacing() {
    AdmissionLog log = new AdmissionLog(0);
    for (int i = 0; i < 10; i++) {
      log.record(i * 50 * MS);
    }

    assertThat(log.medianGapMillis()).hasValueCloseTo(50.0, within(1e-9));
  }

  @Test
  void medianGapMillis_recordedOutOfOrder_sortsTheInstantsFirst() {
    AdmissionLog log = new AdmissionLog(0);
    log.record(30 * MS);
    log.record(0);
    log.record(10 * MS);

    // gaps 10 and 20: an even count takes the mean of the middle two
    assertThat(log.medianGapMillis()).hasValueCloseTo(15.0, within(1e-9));
  }

  @Test
  void medianGapMillis_oneLongPause_isNotSkewedByIt() {
    AdmissionLog log = new AdmissionLog(0);
    long[] instants = {0, 10, 20, 30, 1_000};
    for (long instant : instants) {
      log.record(instant * MS);
    }

    assertThat(log.medianGapMillis()).hasValueCloseTo(10.0, within(1e-9));
  }

  @Test
  void medianGapMillis_acrossNanoTimeOverflow_usesElapsedTime() {
    long start = Long.MAX_VALUE - 5 * MS;
    AdmissionLog log = new AdmissionLog(start);
    log.record(start + 4 * MS);
    log.record(start + 8 * MS); // past the overflow
    log.record(start + 12 * MS);

    assertThat(log.medianGapMillis()).hasValueCloseTo(4.0, within(1e-9));
  }

  @Test
  void record_manyAdmissions_keepsEveryOne() {
    AdmissionLog log = new AdmissionLog(0);
    for (int i = 0; i < 1_000; i++) {
      log.record(i * 2 * MS);
    }

    assertThat(log.medianGapMillis()).hasValueCloseTo(2.0, within(1e-9));
  }
}
