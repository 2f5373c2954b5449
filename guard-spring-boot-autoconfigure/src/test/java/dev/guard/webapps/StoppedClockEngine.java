package dev.guard.webapps;

import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The engine of the test applications: on a clock that only moves when a test moves it, so every
 * QPS window holds all of a test's requests. The starter's engine backs off for it.
 */
@Configuration(proxyBeanMethods = false)
public class StoppedClockEngine {

  @Bean
  ManualClock clock() {
    return new ManualClock();
  }

  @Bean(destroyMethod = "close")
  GuardEngine guardEngine(ManualClock clock) {
    return GuardEngine.builder().clock(clock).build();
  }
}
