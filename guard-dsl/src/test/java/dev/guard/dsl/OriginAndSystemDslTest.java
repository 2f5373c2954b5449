package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.ContextScope;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.FakeSystemStatus;
import dev.guard.testkit.ManualClock;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class OriginAndSystemDslTest {

  private final FakeSystemStatus status = new FakeSystemStatus();
  private final GuardEngine engine =
      GuardEngine.builder().clock(new ManualClock()).systemStatus(status).build();

  private String callAs(String origin, Supplier<String> guarded) {
    try (ContextScope ignored = engine.resource("web").context("web", origin).openContext()) {
      return guarded.get();
    } catch (RefusedException.Origin refused) {
      return "refused " + refused.origin();
    }
  }

  @Test
  void allowOrigins_admitsOnlyTheListedCallers() {
    Supplier<String> admin =
        Guard.of("admin").allowOrigins("ops-console", "billing").on(engine).decorate(() -> "ok");

    assertThat(callAs("ops-console", admin)).isEqualTo("ok");
    assertThat(callAs("billing", admin)).isEqualTo("ok");
    assertThat(callAs("scraper", admin)).isEqualTo("refused scraper");
    assertThat(callAs("", admin)).isEqualTo("ok");
  }

  @Test
  void denyOrigins_refusesTheListedCallers_andCombinesWithOtherRules() {
    Guard search = Guard.of("search").denyOrigins("scraper").qps(100);
    Supplier<String> guarded = search.on(engine).decorate(() -> "ok");

    assertThat(callAs("scraper", guarded)).isEqualTo("refused scraper");
    assertThat(callAs("mobile", guarded)).isEqualTo("ok");
    assertThat(search.rules())
        .containsExactly(OriginRule.deny("search", "scraper"), FlowRule.qps("search", 100));
  }

  @Test
  void origin_onTheGuard_isTheCallersOrigin() {
    Supplier<String> asScraper =
        Guard.of("admin").allowOrigins("ops").origin("scraper").on(engine).decorate(() -> "ok");

    assertThatThrownBy(asScraper::get).isInstanceOf(RefusedException.Origin.class);
  }

  @Test
  void aSecondOriginList_isRefusedAtOnce() {
    assertThatThrownBy(() -> Guard.of("admin").allowOrigins("ops").denyOrigins("scraper"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("denyOrigins: 'admin' already has OriginRule")
        .hasMessageContaining("at most one origin list");
  }

  @Test
  void originLists_validateTheirNames() {
    assertThatThrownBy(() -> Guard.of("admin").allowOrigins())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("origins");
    assertThatThrownBy(() -> Guard.of("admin").denyOrigins("a, "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("origins must not contain a blank name, was 'a, '");
  }

  @Test
  void systemProtection_seesTheGuardsInboundCalls_notItsOutboundOnes() {
    engine.apply(engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxCpuUsage(0.8))));
    status.cpuUsage(0.95);
    Supplier<String> inbound = Guard.of("api").entryType(EntryType.IN).on(engine).decorate(() -> "ok");
    Supplier<String> outbound = Guard.of("downstream").on(engine).decorate(() -> "ok");

    assertThatThrownBy(inbound::get).isInstanceOf(RefusedException.SystemProtection.class);
    assertThat(outbound.get()).isEqualTo("ok");
    status.cpuUsage(0.5);
    assertThat(inbound.get()).isEqualTo("ok");
  }
}
