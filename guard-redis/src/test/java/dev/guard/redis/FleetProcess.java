package dev.guard.redis;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.time.Duration;

/**
 * An instance in a process of its own, for {@link RedisFleetProcessTest}: {@code FleetProcess
 * <uri> <namespace> <calls>} makes the calls in its first second, publishes them (by hand, on a
 * manual clock; stamps from the Redis server's clock), prints {@code ready <id> <passes>
 * <refusals>} and waits until its input ends or it is killed.
 */
final class FleetProcess {

  private FleetProcess() {}

  public static void main(String[] args) throws IOException {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.apply(RuleSet.of(FlowRule.qps("checkout", 10)));
    RedisFleet fleet = RedisFleet.builder(engine, args[0], args[1]).clock(clock).build();
    if (!fleet.awaitConnected(Duration.ofSeconds(10)) || !fleet.publish()) {
      System.out.println("failed to connect");
      System.exit(1);
    }
    int calls = Integer.parseInt(args[2]);
    for (int i = 0; i < calls; i++) {
      try (Entry ignored = engine.resource("checkout").enter()) {
        // admitted
      } catch (RefusedException refused) {
        // counted
      }
    }
    clock.advance(Duration.ofSeconds(1));
    if (!fleet.publish()) {
      System.out.println("failed to publish");
      System.exit(1);
    }
    System.out.println("ready " + fleet.instanceId() + " " + engine.metricsTotals("checkout").pass()
        + " " + engine.metricsTotals("checkout").refused());
    System.out.flush();
    while (System.in.read() >= 0) {
      // until the test closes our input or kills us
    }
  }
}
