package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.SystemRule;
import dev.guard.spi.EngineListener;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.SystemStatus;
import dev.guard.testkit.FakeSystemStatus;
import dev.guard.testsupport.Scenario;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Authority runs first, then system protection, then flow rules; a refusal by a later protection
 * gives back what system protection reserved, and every gauge returns to zero.
 */
class ProtectionOrderTest {

  private final FakeSystemStatus status = new FakeSystemStatus();
  private final Scenario s = new Scenario(GuardEngine.builder().systemStatus(status));

  private Entry enter(String resource, String origin, EntryType type) {
    return s.engine.resource(resource).origin(origin).entryType(type).enter();
  }

  @Test
  void authority_thenSystem_thenFlow() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("admin", List.of(OriginRule.deny("admin", "scraper"), FlowRule.qps("admin", 0))));
    s.engine.apply(s.engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxInboundQps(0))));

    assertThatThrownBy(() -> enter("admin", "scraper", EntryType.IN))
        .isInstanceOf(RefusedException.Origin.class);
    assertThatThrownBy(() -> enter("admin", "ops", EntryType.IN))
        .isInstanceOf(RefusedException.SystemProtection.class);
    assertThatThrownBy(() -> enter("admin", "ops", EntryType.OUT)) // system protection skips OUT
        .isInstanceOf(RefusedException.Flow.class);
    assertThat(s.engine.stats("admin").refusedQps()).isEqualTo(3.0);
    assertThat(s.engine.inboundStats().refusedQps()).isEqualTo(2.0);
  }

  @Test
  void laterRefusal_givesBackTheConcurrencyPlace() {
    s.engine.apply(s.engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxConcurrency(1))));
    s.engine.apply(s.engine.ruleSet().withRulesOf("closed", List.of(FlowRule.qps("closed", 0))));

    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> enter("closed", "", EntryType.IN))
          .isInstanceOf(RefusedException.Flow.class);
    }
    Entry open = enter("open", "", EntryType.IN);
    assertThatThrownBy(() -> enter("other", "", EntryType.IN))
        .isInstanceOfSatisfying(RefusedException.SystemProtection.class,
            refused -> assertThat(refused.limit()).isEqualTo(SystemRule.Limit.CONCURRENCY));
    open.close();

    enter("other", "", EntryType.IN).close();
    assertThat(s.engine.inboundStats().concurrency()).isZero();
  }

  @Test
  void gauges_returnToZero_afterTrafficThroughEveryProtection() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("admin", List.of(OriginRule.allow("admin", "ops"),
        FlowRule.concurrency("admin", 2))));
    s.engine.apply(s.engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxConcurrency(3).withMaxCpuUsage(0.9))));
    status.cpuUsage(0.5);
    List<Entry> held = new ArrayList<>();
    for (String origin : List.of("ops", "ops", "ops", "web", "")) {
      for (EntryType type : EntryType.values()) {
        try {
          held.add(enter("admin", origin, type));
        } catch (RuntimeException refused) {
          assertThat(refused).isInstanceOfAny(RefusedException.Origin.class,
              RefusedException.Flow.class, RefusedException.SystemProtection.class);
        }
        try {
          held.add(enter("plain", origin, type));
        } catch (RefusedException.SystemProtection refused) {
          assertThat(refused.limit()).isEqualTo(SystemRule.Limit.CONCURRENCY);
        }
      }
    }
    assertThat(held).isNotEmpty();
    for (int i = held.size() - 1; i >= 0; i--) {
      held.get(i).close();
    }

    assertThat(s.engine.inboundStats().concurrency()).isZero();
    assertThat(s.engine.stats("admin").concurrency()).isZero();
    assertThat(s.engine.stats("plain").concurrency()).isZero();
    for (int i = 0; i < 3; i++) { // every place was given back
      held.add(enter("plain", "", EntryType.IN));
    }
  }

  @Test
  void failingStatusSource_failsOpen_andLeavesNoPlaceTaken() {
    List<Throwable> errors = new ArrayList<>();
    SystemStatus broken = new SystemStatus() {
      @Override
      public double cpuUsage() {
        throw new IllegalStateException("broken probe");
      }

      @Override
      public double systemLoad() {
        return -1;
      }

      @Override
      public String source() {
        return "broken";
      }
    };
    GuardEngine engine = GuardEngine.builder().clock(s.clock).systemStatus(broken)
        .listener(new EngineListener() {
          @Override
          public void onInternalError(String resource, Throwable error) {
            errors.add(error);
          }
        }).build();
    engine.apply(engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxConcurrency(1).withMaxCpuUsage(0.5))));

    Entry admitted = engine.resource("r").entryType(EntryType.IN).enter();
    assertThat(errors).singleElement().hasFieldOrPropertyWithValue("message", "broken probe");
    assertThatThrownBy(() -> engine.resource("r").entryType(EntryType.IN).enter())
        .isInstanceOf(RefusedException.SystemProtection.class);
    admitted.close();

    assertThat(engine.inboundStats().concurrency()).isZero();
    engine.resource("r").entryType(EntryType.IN).enter().close(); // the place is free: it fails open again
    assertThat(errors).hasSize(2);
  }
}
