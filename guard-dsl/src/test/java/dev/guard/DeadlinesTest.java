package dev.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.spi.TimeSource;
import dev.guard.testkit.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeadlinesTest {

  /** Stands for the system's time source: the one whose deadlines can be waited for. */
  private final ManualClock system = new ManualClock();
  private final ManualClock testClock = new ManualClock();
  private final Deadlines deadlines = new Deadlines(system);
  private final List<String> ran = new ArrayList<>();

  private List<Runnable> due() {
    List<Runnable> due = new ArrayList<>();
    deadlines.takeDue(due);
    return due;
  }

  @Test
  void nothingPending_parksUntilADeadlineIsAdded() {
    deadlines.takeDue(new ArrayList<>());

    assertThat(deadlines.plan()).isEqualTo(Deadlines.UNTIL_ADDED);
  }

  @Test
  void deadlinesOnTheSystemsTime_parkUntilTheEarliestIsDue() {
    deadlines.offer(system, 5_000_000_000L, () -> ran.add("late"));
    deadlines.offer(system, 2_000_000_000L, () -> ran.add("early"));
    system.advanceMillis(500);

    assertThat(due()).isEmpty();
    assertThat(deadlines.plan()).isEqualTo(1_500_000_000L);
  }

  @Test
  void aDeadlineOnAnotherTimeSource_isLookedAtEveryMillisecond() {
    deadlines.offer(system, 5_000_000_000L, () -> ran.add("system"));
    deadlines.offer(testClock, 5_000_000_000L, () -> ran.add("test"));

    assertThat(due()).isEmpty();
    assertThat(deadlines.plan()).isEqualTo(Deadlines.LOOK_NANOS);
  }

  @Test
  void dueDeadlines_run_andCancelledOnesDoNot() {
    deadlines.offer(testClock, 1_000_000L, () -> ran.add("due"));
    deadlines.offer(testClock, 1_000_000L, () -> ran.add("cancelled")).cancel();
    deadlines.offer(testClock, 9_000_000L, () -> ran.add("later"));
    testClock.advanceMillis(1);

    due().forEach(Runnable::run);

    assertThat(ran).containsExactly("due");
    assertThat(deadlines.queued()).isEqualTo(1);
  }

  @Test
  void callsThatEndInTime_leaveNoPileOfDeadlinesBehind() {
    for (int i = 0; i < 10_000; i++) {
      deadlines.offer(system, 60_000_000_000L, () -> ran.add("ended in time")).cancel();
    }
    Deadlines.Deadline live = deadlines.offer(system, 60_000_000_000L, () -> ran.add("live"));

    assertThat(due()).isEmpty();

    assertThat(deadlines.queued()).isEqualTo(1);
    assertThat(live.cancelled()).isFalse();
    system.advanceMillis(60_000);
    due().forEach(Runnable::run);
    assertThat(ran).containsExactly("live");
  }

  @Test
  void aTimeSourceThatFails_holdsBackOnlyItsOwnDeadlines() {
    TimeSource failing = new TimeSource() {
      @Override
      public long nanoTime() {
        throw new IllegalStateException("clock unplugged");
      }

      @Override
      public void sleep(long nanos) {}
    };
    deadlines.offer(failing, 1_000_000L, () -> ran.add("failing clock"));
    deadlines.offer(testClock, 1_000_000L, () -> ran.add("test clock"));
    testClock.advanceMillis(1);

    due().forEach(Runnable::run);

    assertThat(ran).containsExactly("test clock");
    assertThat(deadlines.queued()).isEqualTo(1);
  }
}
