package dev.guard.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class GuardObservationsTest {

  private final TestObservationRegistry registry = TestObservationRegistry.create();
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final GuardObservations observations = GuardObservations.of(registry);
  private final GuardEngine engine =
      GuardEngine.builder().clock(new ManualClock()).listener(observations).build();

  GuardObservationsTest() {
    registry.observationConfig().observationHandler(new ObservationHandler<>() {
      @Override
      public void onEvent(Observation.Event event, Observation.Context context) {
        events.add(context.getName() + " " + event.getName() + " " + event.getContextualName());
      }

      @Override
      public boolean supportsContext(Observation.Context context) {
        return true;
      }
    });
  }

  @Test
  void a_refusal_is_an_event_of_the_observation_in_progress() {
    engine.apply(RuleSet.of(FlowRule.qps("orders", 0)));
    Observation.createNotStarted("http.server.requests", registry).observe(() -> {
      RefusedException refused = catchThrowableOfType(RefusedException.class,
          () -> engine.resource("orders").enter().close());
      observations.refused(refused);
    });

    assertThat(events).containsExactly(
        "http.server.requests guard.refused guard refused orders: flow");
    TestObservationRegistryAssert.assertThat(registry)
        .hasObservationWithNameEqualTo("http.server.requests").that()
        .hasLowCardinalityKeyValue("guard.resource", "orders")
        .hasLowCardinalityKeyValue("guard.refusal", "flow");
  }

  @Test
  void a_breaker_transition_is_an_event_of_the_observation_that_caused_it() {
    engine.apply(RuleSet.of(CircuitBreakerRule.errorCount("payments", 1)));
    Observation.createNotStarted("payment", registry).observe(() -> {
      for (int i = 0; i < 10; i++) {
        try (Entry entry = engine.resource("payments").enter()) {
          entry.recordError(new IllegalStateException("down"));
        } catch (RefusedException refused) {
          observations.refused(refused);
        }
      }
    });

    assertThat(events).contains("payment guard.breaker guard breaker payments: closed -> open");
  }

  @Test
  void without_an_observation_in_progress_nothing_is_recorded() {
    engine.apply(RuleSet.of(FlowRule.qps("orders", 0)));
    RefusedException refused = catchThrowableOfType(RefusedException.class,
        () -> engine.resource("orders").enter().close());
    observations.refused(refused);
    GuardObservations.of(ObservationRegistry.NOOP).refused(refused);

    assertThat(events).isEmpty();
    TestObservationRegistryAssert.assertThat(registry).doesNotHaveAnyObservation();
  }
}
