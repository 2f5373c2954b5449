package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.engine.GuardEngine;
import dev.guard.testing.RefusingPort;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

/** A fleet's heartbeat runs on a thread of its engine's factory, even while Redis is away. */
class Issue39FleetThreadsTest {

  @Test
  void heartbeat_runsOnTheEnginesFactory() throws Exception {
    List<Thread> made = new CopyOnWriteArrayList<>();
    ThreadFactory factory = task -> {
      Thread thread = new Thread(task);
      made.add(thread);
      return thread;
    };
    GuardEngine engine = GuardEngine.builder().threads(factory).build();

    try (RefusingPort closed = RefusingPort.open();
        RedisConnection redis = RedisConnection.of("redis://127.0.0.1:" + closed.port());
        RedisFleet fleet = RedisFleet.builder(engine, redis, "shop").build().start()) {
      assertThat(made).extracting(Thread::getName).contains("guard-redis fleet shop");
      assertThat(made).allSatisfy(thread -> assertThat(thread.isDaemon()).isTrue());
    } finally {
      engine.close();
    }
  }
}
