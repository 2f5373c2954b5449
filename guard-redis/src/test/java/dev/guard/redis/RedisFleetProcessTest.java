package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.engine.GuardEngine;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An instance in another JVM (started from this test with the test class path) joins the fleet;
 * this JVM reads its figures, then kills it and sees it leave once its heartbeat expired. Time
 * on the reading side is a manual clock set from the other process's last heartbeat (stamped by
 * the Redis server's clock), so "expired" is a step of the test, not a wait.
 */
@Tag("process")
class RedisFleetProcessTest {

  @Test
  void instanceInAnotherProcess_isListedWithItsFigures_andGoneAfterItsHeartbeatExpires()
      throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Process child = new ProcessBuilder(List.of(java, "-cp",
          System.getProperty("java.class.path"), FleetProcess.class.getName(), redis.uri(),
          "shop", "14"))
          .redirectErrorStream(true).start();
      try {
        BufferedReader out = new BufferedReader(
            new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String ready = CompletableFuture.supplyAsync(() -> {
          try {
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("ready ")) {
              // class loading messages and the like
            }
            return line;
          } catch (java.io.IOException failed) {
            throw new java.io.UncheckedIOException(failed);
          }
        }).get(120, TimeUnit.SECONDS);
        assertThat(ready).as("the other process's report").isNotNull();
        String[] said = ready.split(" ");
        String childId = said[1];
        assertThat(said[2]).isEqualTo("10");
        assertThat(said[3]).isEqualTo("4");

        // the reader's time: a second after the other process's last heartbeat, by its stamp
        ManualClock clock = ManualClock.startingAt(
            (lastSeenMs(redis, childId) + 1000) * 1_000_000L);
        GuardEngine engine = GuardEngine.builder().clock(clock).build();
        try (engine;
            RedisFleet reader = RedisFleet.builder(engine, redis.uri(), "shop").instanceId("reader")
                .clock(clock).wallClock(clock).build()) {
          assertThat(reader.awaitConnected(Duration.ofSeconds(10))).isTrue();
          RedisFleet.View view = reader.view();
          assertThat(view.instances()).extracting(RedisFleet.Instance::id)
              .containsExactly(childId);
          RedisFleet.Instance other = view.instances().get(0);
          assertThat(other.alive()).isTrue();
          assertThat(other.pid()).isEqualTo(child.pid());
          assertThat(other.self()).isFalse();
          RedisFleet.Figures checkout = view.resources().get(0).total();
          assertThat(checkout.pass()).isEqualTo(10);
          assertThat(checkout.refused()).isEqualTo(4);

          child.destroyForcibly();
          assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
          clock.advance(Duration.ofSeconds(4)); // three heartbeats (1 s) missed
          assertThat(reader.view().instances()).extracting(RedisFleet.Instance::alive)
              .containsExactly(false);
          clock.advance(Duration.ofSeconds(8)); // past the expiry (10 s)
          assertThat(reader.view().instances()).isEmpty();
        }
      } finally {
        child.destroyForcibly();
      }
    }
  }

  private static long lastSeenMs(RedisServer redis, String id) {
    RedisClient client = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      return Long.parseLong(connection.sync().hget("guard-fleet:{shop:" + id + "}:h", "seen"));
    } finally {
      client.shutdown();
    }
  }
}
