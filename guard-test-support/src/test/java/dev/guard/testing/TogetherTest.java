package dev.guard.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TogetherTest {

  @Test
  void run_givesEachThreadItsIndex_andRunsThemAtOnce() throws Exception {
    Set<Integer> seen = ConcurrentHashMap.newKeySet();
    CyclicBarrier allHere = new CyclicBarrier(4); // passes only if all four run at the same time
    Together.run(4, thread -> {
      allHere.await(10, TimeUnit.SECONDS);
      seen.add(thread);
    });
    assertThat(seen).containsExactlyInAnyOrder(0, 1, 2, 3);
  }

  @Test
  void run_threadThatThrows_failsTheRunWithIt() {
    IllegalStateException thrown = new IllegalStateException("thread 2");
    assertThatThrownBy(() -> Together.run(3, thread -> {
      if (thread == 2) {
        throw thrown;
      }
    })).isInstanceOf(ExecutionException.class).hasCause(thrown);
  }

  @Test
  void run_noThreads_isRefusedNamingIt() {
    assertThatThrownBy(() -> Together.run(0, thread -> { }))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("threads must be >= 1, was 0");
  }
}
