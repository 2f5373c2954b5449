package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.dashboard.GuardDashboard;
import dev.guard.engine.GuardEngine;
import dev.guard.micrometer.GuardMetrics;
import dev.guard.reactor.GuardedPublishers;
import dev.guard.redis.RedisRuleSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The starter with none of its optional modules: an application that has only what it needs. */
class OptionalModulesTest {

  @Test
  void the_engine_rules_and_guarded_methods_need_none_of_the_optional_modules() {
    new ApplicationContextRunner()
        .withClassLoader(new FilteredClassLoader(RedisRuleSource.class, GuardedPublishers.class,
            GuardDashboard.class, GuardMetrics.class, reactor.core.publisher.Mono.class))
        .withConfiguration(AutoConfigurations.of(GuardObservationsAutoConfiguration.class,
            GuardAutoConfiguration.class, GuardActuatorAutoConfiguration.class,
            GuardDashboardAutoConfiguration.class))
        .withPropertyValues("guard.rules.flow[0].resource=a", "guard.rules.flow[0].qps=1",
            "guard.redis.uri=redis://127.0.0.1:1", "guard.dashboard.enabled=true")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(GuardEngine.class).rules("a")).hasSize(1);
          assertThat(context).doesNotHaveBean("guardRedisRuleSource");
        });
  }
}
