package dev.guard.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.internal.Threads;
import dev.guard.spi.RulePart;
import dev.guard.spi.RuleSource;
import dev.guard.testkit.ManualClock;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine's background threads, and those of what is attached to it, come from the thread
 * factory it was built with; guard names each for its role and makes it a daemon.
 */
class Issue39ThreadsTest {

  /** Makes non-daemon platform threads, and remembers them. */
  private static final class Recording implements ThreadFactory {
    final List<Thread> made = new CopyOnWriteArrayList<>();

    @Override
    public Thread newThread(Runnable task) {
      Thread thread = new Thread(task, "application-thread");
      thread.setDaemon(false);
      made.add(thread);
      return thread;
    }
  }

  @Test
  void metricsLog_runsOnTheEnginesFactory_namedAndDaemon(@TempDir Path directory)
      throws Exception {
    Recording factory = new Recording();
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).threads(factory).build();

    try (MetricsLog log = MetricsLog.builder(engine, directory).start()) {
      assertThat(engine.threads()).isSameAs(factory);
      assertThat(factory.made).singleElement().satisfies(thread -> {
        assertThat(thread.getName()).isEqualTo("guard-metrics-log");
        assertThat(thread.isDaemon()).isTrue();
      });
    }
    engine.close();
  }

  @Test
  void ruleSources_areGivenTheEnginesFactory() {
    Recording factory = new Recording();
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).threads(factory).build();
    AtomicReference<ThreadFactory> given = new AtomicReference<>();
    RuleSource source = new RuleSource() {
      @Override
      public String name() {
        return "recording";
      }

      @Override
      public void start(RuleSource.Sink sink) {
        given.set(sink.threads());
      }

      @Override
      public void close() {}
    };

    engine.attach(source, RulePart.all());

    assertThat(given.get()).isSameAs(factory);
    engine.close();
  }

  @Test
  void withoutAFactory_threadsArePlatformDaemons() {
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();
    Thread thread = Threads.make(engine.threads(), "guard-test", () -> { });

    assertThat(thread.isDaemon()).isTrue();
    assertThat(thread.getName()).isEqualTo("guard-test");
    engine.close();
  }

  @Test
  void aFactoryThatMakesNoThread_isNamedInTheError() {
    ThreadFactory none = task -> null;

    assertThatThrownBy(() -> Threads.make(none, "guard-metrics-log", () -> { }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("made no thread for guard-metrics-log");
  }

  @Test
  void theFactoryIsSetOnce() {
    GuardEngine.Builder builder = GuardEngine.builder().threads(new Recording());

    assertThatThrownBy(() -> builder.threads(new Recording()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("threads");
  }
}
