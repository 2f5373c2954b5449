package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.engine.GuardEngine;
import dev.guard.micrometer.GuardObservations;
import dev.guard.testkit.ManualClock;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class ObservedRefusalsTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(
              GuardObservationsAutoConfiguration.class, GuardAutoConfiguration.class))
          .withUserConfiguration(App.class)
          .withPropertyValues("guard.rules.flow[0].resource=search", "guard.rules.flow[0].qps=0");

  @Test
  void a_refusal_of_a_guarded_method_is_an_event_of_the_observation_in_progress() {
    runner.run(context -> {
      TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
      List<String> events = context.getBean(App.class).events;
      Search search = context.getBean(Search.class);
      Observation.createNotStarted("http.server.requests", registry)
          .observe(() -> assertThat(search.search("shoes")).isEqualTo("later"));

      assertThat(events).containsExactly("guard.refused guard refused search: flow");
      TestObservationRegistryAssert.assertThat(registry)
          .hasObservationWithNameEqualTo("http.server.requests").that()
          .hasLowCardinalityKeyValue("guard.refusal", "flow");
    });
  }

  @Test
  void the_engine_tells_the_observation_in_progress_of_a_breaker_transition() {
    runner.run(context -> {
      TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
      GuardEngine engine = context.getBean(GuardEngine.class);
      engine.apply(engine.ruleSet().withRulesOf("payments",
          List.of(CircuitBreakerRule.errorCount("payments", 1))));
      Observation.createNotStarted("payment", registry).observe(() -> {
        for (int i = 0; i < 10; i++) {
          try (Entry entry = engine.resource("payments").enter()) {
            entry.recordError(new IllegalStateException("down"));
          } catch (RefusedException refused) {
            // open
          }
        }
      });
      assertThat(context.getBean(App.class).events)
          .contains("guard.breaker guard breaker payments: closed -> open");
    });
  }

  @Test
  void guard_observations_enabled_false_records_nothing() {
    runner.withPropertyValues("guard.observations.enabled=false").run(context -> {
      assertThat(context).doesNotHaveBean(GuardObservations.class);
      TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
      Observation.createNotStarted("http.server.requests", registry)
          .observe(() -> context.getBean(Search.class).search("shoes"));
      assertThat(context.getBean(App.class).events).isEmpty();
    });
  }

  @Configuration(proxyBeanMethods = false)
  static class App {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Bean
    ManualClock clock() {
      return new ManualClock();
    }

    @Bean
    TestObservationRegistry observationRegistry() {
      TestObservationRegistry registry = TestObservationRegistry.create();
      registry.observationConfig().observationHandler(new ObservationHandler<>() {
        @Override
        public void onEvent(Observation.Event event, Observation.Context context) {
          events.add(event.getName() + " " + event.getContextualName());
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
          return true;
        }
      });
      return registry;
    }

    @Bean
    Search searchService() {
      return new Search();
    }
  }

  static class Search {
    @Guarded(value = "search", onRefusal = "later")
    public String search(String query) {
      return "found " + query;
    }

    String later(String query, RefusedException refused) {
      return "later";
    }
  }

}
