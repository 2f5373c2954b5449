package dev.guard.engine.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.Rule;
import dev.guard.spi.Cap;
import dev.guard.spi.EngineListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every listener hears of an event, in order, whatever the ones before it threw. */
class ListenersTest {

  private final List<String> heard = new ArrayList<>();

  private EngineListener recording(String name) {
    return new EngineListener() {
      @Override
      public void onCapExceeded(Cap cap, String resource) {
        heard.add(name + ":" + cap + ":" + resource);
      }

      @Override
      public void onRulesReplaced(String resource, List<Rule> previous, List<Rule> current) {
        heard.add(name + ":" + resource);
      }
    };
  }

  private final EngineListener throwing = new EngineListener() {
    @Override
    public void onCapExceeded(Cap cap, String resource) {
      throw new IllegalStateException("fails on purpose");
    }

    @Override
    public void onRulesReplaced(String resource, List<Rule> previous, List<Rule> current) {
      throw new IllegalStateException("fails on purpose");
    }
  };

  @Test
  void tell_aListenerThrows_theOthersStillHearInOrder() {
    Listeners listeners = new Listeners(List.of(recording("a"), throwing, recording("b")));

    listeners.tell(EngineListener::onCapExceeded, Cap.ORIGINS, "r");
    listeners.tell(EngineListener::onRulesReplaced, "r", List.of(), List.of());

    assertThat(heard).containsExactly("a:ORIGINS:r", "b:ORIGINS:r", "a:r", "b:r");
  }

  @Test
  void none_withoutListeners_isTrueAndTellingDoesNothing() {
    Listeners listeners = new Listeners(List.of());

    listeners.tell(EngineListener::onCapExceeded, Cap.ORIGINS, "r");

    assertThat(listeners.none()).isTrue();
    assertThat(heard).isEmpty();
  }
}
