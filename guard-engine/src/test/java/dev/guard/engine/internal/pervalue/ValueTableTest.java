package dev.guard.engine.internal.pervalue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ValueTableTest {

  private final AtomicLong forgotten = new AtomicLong();

  private static ValueState remember(ValueTable table, Object value) {
    ValueState state = table.find(value);
    return state != null ? state : table.insert(value, new ValueState(1, 0));
  }

  @Test
  void manyValues_stayWithinTheBound_andEveryForgottenValueIsCounted() {
    ValueTable table = new ValueTable(new TokenBucketGate(1000, 0), 100, forgotten::addAndGet);

    for (int i = 0; i < 10_000; i++) {
      remember(table, i);
      assertThat(table.size()).isLessThanOrEqualTo(100);
    }

    assertThat(forgotten.get() + table.size()).isEqualTo(10_000);
  }

  @Test
  void valueUsedWithinEveryGeneration_isNeverForgotten() {
    ValueTable table = new ValueTable(new TokenBucketGate(1000, 0), 100, forgotten::addAndGet);
    ValueState hot = remember(table, "hot");

    for (int i = 0; i < 10_000; i++) {
      remember(table, i);
      if (i % 49 == 0) {
        assertThat(remember(table, "hot")).isSameAs(hot);
      }
    }
  }

  @Test
  void findOfAKnownValue_returnsTheSameState() {
    ValueTable table = new ValueTable(new TokenBucketGate(1000, 0), 100, forgotten::addAndGet);
    ValueState state = remember(table, "a");

    assertThat(table.find("a")).isSameAs(state);
    assertThat(table.find("b")).isNull();
  }

  @Test
  void peek_findsAValueWithoutCountingItAsAUse() {
    ValueTable table = new ValueTable(new TokenBucketGate(1000, 0), 4, forgotten::addAndGet);
    ValueState old = remember(table, "old");
    remember(table, 1); // the generation of two is full: "old" and 1 are the previous one

    for (int i = 2; i < 4; i++) {
      assertThat(table.peek("old")).isSameAs(old);
      remember(table, i);
    }

    assertThat(table.peek("old")).as("peeks kept it no longer than its last use").isNull();
    assertThat(table.peek("never")).isNull();
  }

  @Test
  void busyValues_areCarriedOver_idleOnesRetired() {
    ConcurrencyGate gate = new ConcurrencyGate();
    ValueTable table = new ValueTable(gate, 4, forgotten::addAndGet);
    ValueState busy = remember(table, "busy");
    assertThat(gate.take(busy, 1, 0)).isZero();
    ValueState idle = remember(table, "idle");

    for (int i = 0; i < 20; i++) {
      remember(table, i);
    }

    assertThat(table.find("busy")).isSameAs(busy);
    assertThat(gate.retired(idle)).isTrue();
    assertThat(gate.take(idle, 1, 0)).isEqualTo(ValueGate.RETIRED);
    assertThat(table.find("idle")).isNull();
  }
}
