package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.ContextScope;
import dev.guard.api.Entry;
import dev.guard.testsupport.Scenario;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Exit ordering of a guard's decorated call (docs/BEHAVIOUR.md, "Contexts and entries"); the rest is in the engine's EntryScenariosTest. */
class EntryScenariosDslTest {

  @Test
  void close_outOfOrderFromAnotherThread_leavesTheOwnersDecoratedCallToTheOwner() throws Exception {
    Scenario s = new Scenario();
    AtomicReference<Throwable> foreignClose = new AtomicReference<>();
    Runnable decorated = Guard.of("outer").on(s.engine).decorateRunnable(() -> {
      Entry middle = s.engine.resource("middle").enter();
      Entry inner = s.engine.resource("inner").enter();
      Thread other = new Thread(() -> {
        try {
          middle.close(); // not the top entry, and not this thread's
        } catch (Throwable t) {
          foreignClose.set(t);
        }
      });
      other.start();
      try {
        other.join();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      inner.close();
      assertThat(s.engine.stats("outer").concurrency()).as("outer still running").isEqualTo(1);
    });

    decorated.run();

    assertThat(foreignClose.get()).isInstanceOf(IllegalStateException.class);
    for (String resource : List.of("outer", "middle", "inner")) {
      assertThat(s.engine.stats(resource).concurrency()).as(resource).isZero();
      assertThat(s.engine.stats(resource).totalPass()).as(resource).isEqualTo(1);
      assertThat(s.engine.stats(resource).successQps()).as(resource).isEqualTo(1.0);
    }
  }
}
