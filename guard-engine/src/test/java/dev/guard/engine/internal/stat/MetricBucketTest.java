package dev.guard.engine.internal.stat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MetricBucketTest {

  @Test
  void minRt_noResponseTime_isDefault5000() {
    assertThat(new MetricBucket(0).minRt()).isEqualTo(5000L);
  }

  @Test
  void addRt_smallerValues_lowerMinRtAndAddUp() {
    MetricBucket bucket = new MetricBucket(0);
    bucket.addRt(30);
    bucket.addRt(10);
    bucket.addRt(20);

    assertThat(bucket.minRt()).isEqualTo(10L);
    assertThat(bucket.get(MetricEvent.RT)).isEqualTo(60L);
  }

  @Test
  void add_negativeAmount_undoesEarlierAdd() {
    MetricBucket bucket = new MetricBucket(0);
    bucket.add(MetricEvent.PASS, 3);
    bucket.add(MetricEvent.PASS, -1);

    assertThat(bucket.get(MetricEvent.PASS)).isEqualTo(2L);
  }

  @Test
  void reset_afterCounts_zeroesEveryCounterAndMovesStart() {
    MetricBucket bucket = new MetricBucket(500);
    for (MetricEvent event : MetricEvent.values()) {
      bucket.add(event, 7);
    }
    bucket.addRt(3);

    bucket.reset(1500);

    assertThat(bucket.startMs()).isEqualTo(1500L);
    assertThat(bucket.minRt()).isEqualTo(MetricBucket.DEFAULT_MIN_RT);
    for (MetricEvent event : MetricEvent.values()) {
      assertThat(bucket.get(event)).as(event.name()).isZero();
    }
  }

  @Test
  void tryClaim_staleStart_marksResettingOnce() {
    MetricBucket bucket = new MetricBucket(500);

    assertThat(bucket.tryClaim(500)).isTrue();
    assertThat(bucket.tryClaim(500)).isFalse();
    assertThat(bucket.startMs()).isEqualTo(MetricBucket.RESETTING);
  }
}
