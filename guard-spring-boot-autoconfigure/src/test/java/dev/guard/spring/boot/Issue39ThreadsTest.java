package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.engine.GuardEngine;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The starter's engine takes its threads from the platform's choice. */
class Issue39ThreadsTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class));

  @Test
  void byDefault_guardsThreadsArePlatformDaemons() {
    runner.run(context -> {
      Thread thread = context.getBean(GuardEngine.class).threads().newThread(() -> { });

      assertThat(isVirtual(thread)).isFalse();
    });
  }

  @Test
  void withVirtualThreadsOn_guardsThreadsAreVirtual_whereTheJavaHasThem() {
    boolean available = Runtime.version().feature() >= 21;
    runner.withPropertyValues("spring.threads.virtual.enabled=true").run(context -> {
      Thread thread = context.getBean(GuardEngine.class).threads().newThread(() -> { });

      assertThat(isVirtual(thread)).isEqualTo(available);
    });
  }

  private static boolean isVirtual(Thread thread) throws ReflectiveOperationException {
    if (Runtime.version().feature() < 21) {
      return false;
    }
    Method isVirtual = Thread.class.getMethod("isVirtual");
    return (Boolean) isVirtual.invoke(thread);
  }
}
