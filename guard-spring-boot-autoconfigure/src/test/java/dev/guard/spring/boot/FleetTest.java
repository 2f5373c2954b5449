package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.redis.RedisFleet;
import dev.guard.testing.Await;
import dev.guard.testing.RedisServer;
import dev.guard.testing.RefusingPort;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** guard.redis.fleet.*: two applications on one real redis-server, each seeing both. */
@Tag("process")
class FleetTest {

  private static RedisServer redis;
  private static String uri;

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisServer.start();
    uri = redis.uri();
  }

  @AfterAll
  static void stopRedis() throws InterruptedException {
    redis.close();
  }

  private static ApplicationContextRunner app(String name) {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class,
            GuardActuatorAutoConfiguration.class))
        .withPropertyValues("guard.redis.uri=" + uri, "guard.redis.token-namespace=shop",
            "spring.application.name=" + name, "guard.redis.fleet.heartbeat=PT0.2S",
            "management.endpoints.web.exposure.include=guard");
  }

  /** Reads the fleet until it satisfies {@code done}, for at most 30 s of real time. */
  private static RedisFleet.View awaitView(GuardEndpoint endpoint, String what,
      Predicate<RedisFleet.View> done) {
    return Await.value(what, Duration.ofSeconds(30),
        () -> (RedisFleet.View) endpoint.guard().get("fleet"),
        view -> view != null && done.test(view));
  }

  @Test
  void two_applications_in_one_namespace_see_each_other_and_the_fleets_sums() {
    app("orders-a").run(a -> app("orders-b").run(b -> {
      assertThat(a).hasNotFailed().hasBean(GuardAutoConfiguration.FLEET);
      assertThat(b).hasNotFailed();
      for (var context : List.of(a, b)) {
        GuardEngine engine = context.getBean(GuardEngine.class);
        for (int i = 0; i < 3; i++) {
          try (Entry ignored = engine.resource("checkout").enter()) {
            // one call
          }
        }
      }

      RedisFleet.View view = awaitView(a.getBean(GuardEndpoint.class),
          "the fleet to list both applications and 6 passes of checkout", seen ->
          seen.instances().size() == 2 && seen.resources().stream()
              .anyMatch(r -> r.name().equals("checkout") && r.total().pass() == 6));

      assertThat(view.instances()).extracting(RedisFleet.Instance::name)
          .containsExactlyInAnyOrder("orders-a", "orders-b");
      assertThat(view.resources()).filteredOn(r -> r.name().equals("checkout"))
          .singleElement().satisfies(checkout -> {
            assertThat(checkout.total().pass()).isEqualTo(6);
            assertThat(checkout.byInstance().values()).extracting(RedisFleet.Figures::pass)
                .containsExactly(3L, 3L);
          });
    }));
  }

  @Test
  void turned_off_or_without_a_namespace_there_is_no_fleet() {
    app("alone").withPropertyValues("guard.redis.fleet.enabled=false").run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(GuardAutoConfiguration.FLEET);
      assertThat(context.getBean(GuardEndpoint.class).guard()).doesNotContainKey("fleet");
    });
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class))
        .withPropertyValues("guard.redis.uri=" + uri)
        .run(context -> assertThat(context).hasNotFailed()
            .doesNotHaveBean(GuardAutoConfiguration.FLEET));
  }

  @Test
  void redis_away_at_start_up_does_not_stop_the_application() throws Exception {
    try (RefusingPort closed = RefusingPort.open()) {
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class))
          .withPropertyValues("guard.redis.uri=redis://127.0.0.1:" + closed.port(),
              "guard.redis.fleet.namespace=shop", "guard.redis.fleet.heartbeat=PT1S")
          .run(context -> {
            assertThat(context).hasNotFailed().hasBean(GuardAutoConfiguration.FLEET);
            RedisFleet fleet = context.getBean(RedisFleet.class);
            assertThat(fleet.view().problem()).isNotNull();
          });
    }
  }
}
