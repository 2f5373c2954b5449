package dev.guard.engine.internal.pervalue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ElementsTest {

  @Test
  void keysOfCommonTypes_areOneValue() {
    for (Object key : List.of("alice", 42L, 7, UUID.randomUUID(), true, 'x', (short) 3,
        (byte) 1, 1.5d, 2.5f, Thread.State.NEW, new StringBuilder("sb"))) {
      assertThat(Elements.of(key)).as("%s", key).isNull();
    }
  }

  @Test
  void randomAccessListsAndArrays_areReadInPlace() {
    List<String> list = new ArrayList<>(List.of("a", "b"));
    int[] numbers = {1, 2, 3};

    assertThat(Elements.of(list)).isSameAs(list);
    assertThat(Elements.of(numbers)).isSameAs(numbers);
    assertThat(Elements.size(numbers)).isEqualTo(3);
    assertThat(Elements.get(numbers, 2)).isEqualTo(3);
  }

  @Test
  void otherCollections_areCopiedOnce() {
    Object elements = Elements.of(new ArrayDeque<>(List.of("a", "b")));

    assertThat(elements).isInstanceOf(Object[].class);
    assertThat(Elements.size(elements)).isEqualTo(2);
    assertThat(Elements.get(elements, 0)).isEqualTo("a");
    assertThat(Elements.of(Set.of("only"))).isEqualTo(new Object[] {"only"});
  }
}
