package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.Entry;
import dev.guard.api.PeriodStats;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.testing.RedisClusterServers;
import dev.guard.testkit.ManualClock;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The fleet on a real three-node Redis Cluster: each instance's keys share one hash slot (its
 * publishing script touches both), instances spread over the nodes, and the view reads them all.
 */
@Tag("process")
class RedisClusterFleetTest {

  private static RedisClusterServers cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = RedisClusterServers.start();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void instancesOnEveryNode_viewSumsEqualTheirTotals() throws Exception {
    ManualClock clock = new ManualClock();
    List<GuardEngine> engines = new ArrayList<>();
    List<RedisFleet> fleets = new ArrayList<>();
    Set<Integer> nodes = new HashSet<>();
    try {
      for (int i = 0; nodes.size() < 3 || fleets.size() < 4; i++) {
        GuardEngine engine = GuardEngine.builder().clock(clock).build();
        RedisFleet fleet = RedisFleet.builder(engine, cluster.seed(), "shop").cluster()
            .instanceId("i" + i).clock(clock).wallClock(clock).build();
        List<String> keys = fleet.ownKeys();
        int slot = SlotHash.getSlot(keys.get(0));
        assertThat(SlotHash.getSlot(keys.get(1))).isEqualTo(slot);
        if (!nodes.add(RedisClusterServers.nodeOfSlot(slot)) && fleets.size() >= 4) {
          fleet.close();
          engine.close();
          continue;
        }
        assertThat(fleet.awaitConnected(Duration.ofSeconds(10))).isTrue();
        engine.apply(RuleSet.of(FlowRule.qps("checkout", 3)));
        engines.add(engine);
        fleets.add(fleet);
      }
      for (int second = 0; second < 3; second++) {
        for (int i = 0; i < engines.size(); i++) {
          for (int call = 0; call < 2 + i; call++) {
            try (Entry ignored = engines.get(i).resource("checkout").enter()) {
              // admitted
            } catch (RefusedException refused) {
              // counted
            }
          }
        }
        clock.advance(Duration.ofSeconds(1));
        for (RedisFleet fleet : fleets) {
          assertThat(fleet.publish()).isTrue();
        }
      }

      RedisFleet.View view = fleets.get(0).view();

      assertThat(view.problem()).isNull();
      assertThat(view.skipped()).isZero();
      assertThat(view.instances()).hasSize(fleets.size()).allMatch(RedisFleet.Instance::alive);
      assertThat(view.rulesAgree()).isTrue();
      RedisFleet.Resource checkout = view.resources().get(0);
      long pass = 0;
      long refused = 0;
      for (int i = 0; i < engines.size(); i++) {
        PeriodStats own = engines.get(i).metricsTotals("checkout");
        assertThat(checkout.byInstance().get(fleets.get(i).instanceId()).pass())
            .isEqualTo(own.pass());
        pass += own.pass();
        refused += own.refused();
      }
      assertThat(checkout.total().pass()).isEqualTo(pass);
      assertThat(checkout.total().refused()).isEqualTo(refused).isPositive();
      assertThat(checkout.seconds()).hasSize(3);
    } finally {
      for (RedisFleet fleet : fleets) {
        fleet.close();
      }
      for (GuardEngine engine : engines) {
        engine.close();
      }
    }
  }
}
