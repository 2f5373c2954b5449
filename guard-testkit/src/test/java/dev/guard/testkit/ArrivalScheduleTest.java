package dev.guard.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ArrivalScheduleTest {

  private static final Duration SECOND = Duration.ofSeconds(1);

  @Test
  void burst_fiveCalls_allAtZeroWithZeroLength() {
    ArrivalSchedule burst = ArrivalSchedule.burst(5);

    assertThat(burst.offsets()).containsExactly(Duration.ZERO, Duration.ZERO, Duration.ZERO,
        Duration.ZERO, Duration.ZERO);
    assertThat(burst.length()).isZero();
  }

  @Test
  void bursts_lastingSixteenSeconds_twelveAtTheStartOfEachSecond() {
    ArrivalSchedule schedule = ArrivalSchedule.bursts(12, SECOND).lasting(Duration.ofSeconds(16));

    assertThat(schedule.size()).isEqualTo(192);
    assertThat(schedule.length()).isEqualTo(Duration.ofSeconds(16));
    assertThat(schedule.offsets()).containsExactlyElementsOf(IntStream.range(0, 192)
        .mapToObj(i -> Duration.ofSeconds(i / 12)).toList());
  }

  @Test
  void steady_fourPerSecond_spacedEvenlyOverThePeriod() {
    ArrivalSchedule steady = ArrivalSchedule.steady(4, SECOND);

    assertThat(steady.offsets()).containsExactly(Duration.ZERO, Duration.ofMillis(250),
        Duration.ofMillis(500), Duration.ofMillis(750));
    assertThat(steady.length()).isEqualTo(SECOND);
  }

  @Test
  void steady_periodNotDivisibleByCalls_roundsDownToWholeNanos() {
    ArrivalSchedule steady = ArrivalSchedule.steady(3, Duration.ofNanos(10));

    assertThat(steady.offsets())
        .containsExactly(Duration.ZERO, Duration.ofNanos(3), Duration.ofNanos(6));
  }

  @Test
  void lasting_totalNotAMultipleOfLength_cutsTheLastCopyShort() {
    ArrivalSchedule schedule = ArrivalSchedule.steady(10, SECOND).lasting(Duration.ofMillis(1500));

    assertThat(schedule.size()).isEqualTo(15);
    assertThat(schedule.offsets().get(14)).isEqualTo(Duration.ofMillis(1400));
    assertThat(schedule.length()).isEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void then_twoSchedules_shiftsTheSecondByTheFirstsLength() {
    ArrivalSchedule joined =
        ArrivalSchedule.atMillis(0, 300).then(ArrivalSchedule.atMillis(0, 300));

    assertThat(joined.offsets()).containsExactly(Duration.ZERO, Duration.ofMillis(300),
        Duration.ofMillis(300), Duration.ofMillis(600));
    assertThat(joined.length()).isEqualTo(Duration.ofMillis(600));
  }

  @Test
  void idle_betweenBursts_separatesThemByItsLength() {
    ArrivalSchedule schedule = ArrivalSchedule.burst(2)
        .then(ArrivalSchedule.idle(SECOND))
        .then(ArrivalSchedule.burst(1));

    assertThat(schedule.offsets()).containsExactly(Duration.ZERO, Duration.ZERO, SECOND);
    assertThat(schedule.length()).isEqualTo(SECOND);
  }

  @Test
  void atMillis_offsets_endAtTheLastOne() {
    ArrivalSchedule schedule = ArrivalSchedule.atMillis(0, 0, 499, 1500);

    assertThat(schedule.offsets()).containsExactly(Duration.ZERO, Duration.ZERO,
        Duration.ofMillis(499), Duration.ofMillis(1500));
    assertThat(schedule.length()).isEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void atMillis_noOffsets_emptyScheduleOfZeroLength() {
    ArrivalSchedule empty = ArrivalSchedule.atMillis();

    assertThat(empty.size()).isZero();
    assertThat(empty.length()).isZero();
  }

  @Test
  void atNanos_arrayChangedAfterwards_scheduleUnchanged() {
    long[] offsets = {1, 2, 3};
    ArrivalSchedule schedule = ArrivalSchedule.atNanos(offsets);
    offsets[0] = 99;

    assertThat(schedule.offsets().get(0)).isEqualTo(Duration.ofNanos(1));
  }

  @Test
  void offsets_returnedList_isImmutable() {
    List<Duration> offsets = ArrivalSchedule.burst(2).offsets();

    assertThatThrownBy(() -> offsets.add(Duration.ZERO))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void equals_sameOffsetsAndLength_equalWithSameHashCode() {
    ArrivalSchedule built = ArrivalSchedule.burst(2).then(ArrivalSchedule.idle(SECOND));

    assertThat(built).isEqualTo(ArrivalSchedule.bursts(2, SECOND))
        .hasSameHashCodeAs(ArrivalSchedule.bursts(2, SECOND))
        .isNotEqualTo(ArrivalSchedule.burst(2));
  }

  @Test
  void toString_manyArrivals_showsCountLengthAndFirstOffsetsInMillis() {
    assertThat(ArrivalSchedule.atNanos(0, 1_500_000, 2_000_000_000L).toString())
        .isEqualTo("ArrivalSchedule[3 arrivals over 2000 ms at 0, 1.5, 2000 ms]");
    assertThat(ArrivalSchedule.steady(10, SECOND).toString())
        .isEqualTo("ArrivalSchedule[10 arrivals over 1000 ms at 0, 100, 200, 300, 400, 500, 600,"
            + " 700, ... ms]");
    assertThat(ArrivalSchedule.idle(SECOND).toString())
        .isEqualTo("ArrivalSchedule[0 arrivals over 1000 ms]");
  }
}
