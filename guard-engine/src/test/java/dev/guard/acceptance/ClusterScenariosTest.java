package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.InMemoryTokenService;
import dev.guard.spi.TokenService;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/BEHAVIOUR.md, "Cluster flow control": the token service's decisions and the engine's. */
class ClusterScenariosTest {

  private static final long T0 = 60_000;

  private final ManualClock clock = ManualClock.startingAt(T0 * 1_000_000L);
  private final InMemoryTokenService service = new InMemoryTokenService(clock);

  private void at(long offsetMs) {
    clock.advanceMillis(T0 + offsetMs - clock.millis());
  }

  private static FlowRule global(double count) {
    return FlowRule.qps("R", count).withCluster(ClusterMode.global("orders"));
  }

  @Test
  void tokenService_globalWindow_passesBlocksAndLetsPrioritizedWaitForTheNextBucket() {
    TokenService client = service.connect("shop");
    FlowRule rule = global(10);

    List<Long> remaining = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      TokenService.Result ok = client.requestToken(rule, 1, false);
      assertThat(ok.status()).isEqualTo(TokenService.Result.Status.OK);
      remaining.add(ok.remaining());
    }
    assertThat(remaining).containsExactly(9L, 8L, 7L, 6L, 5L, 4L, 3L, 2L, 1L, 0L);
    assertThat(client.requestToken(rule, 1, false)).isEqualTo(TokenService.Result.REFUSED);
    // no older bucket slides out at the next bucket: nothing to take
    assertThat(client.requestToken(rule, 1, true)).isEqualTo(TokenService.Result.REFUSED);

    at(900);
    assertThat(client.requestToken(rule, 1, false)).isEqualTo(TokenService.Result.REFUSED);
    // 10 passed - 10 sliding out + 0 taken + 1 <= 10, then 10 - 10 + 1 + 1 <= 10
    assertThat(client.requestToken(rule, 1, true)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.shouldWait(100));
    assertThat(client.requestToken(rule, 1, true)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.shouldWait(100));

    at(1000); // the 2 taken passes are the new bucket's
    assertThat(client.requestToken(rule, 1, false)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(7));
  }

  @Test
  void tokenService_shouldWait_lastsUntilTheNextBucketStarts() {
    TokenService client = service.connect("shop");
    FlowRule rule = global(10);
    for (int i = 0; i < 10; i++) {
      client.requestToken(rule, 1, false);
    }
    at(930);
    assertThat(client.requestToken(rule, 1, true)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.shouldWait(70));
  }

  @Test
  void tokenService_longWindow_countsPermitsPerWindow() {
    TokenService client = service.connect("shop");
    // 5 per second over a 2 s window: 10 permits per window
    FlowRule rule = FlowRule.qps("R", 5)
        .withCluster(ClusterMode.global("orders").withWindow(4, Duration.ofSeconds(2)));
    for (int i = 0; i < 10; i++) {
      assertThat(client.requestToken(rule, 1, false).status()).isEqualTo(TokenService.Result.Status.OK);
    }
    assertThat(client.requestToken(rule, 1, false)).isEqualTo(TokenService.Result.REFUSED);
    at(1500); // the oldest bucket (all 10 passes) slides out at T0 + 2000
    assertThat(client.requestToken(rule, 1, true)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.shouldWait(500));
    at(2000);
    assertThat(client.requestToken(rule, 1, false)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(8));
  }

  @Test
  void tokenService_changedWindow_startsWithTheOldWindowsPasses_andLeavesItIntact() {
    TokenService client = service.connect("shop");
    for (int i = 0; i < 10; i++) {
      client.requestToken(global(10), 1, false);
    }
    FlowRule rebuilt = FlowRule.qps("R", 10)
        .withCluster(ClusterMode.global("orders").withWindow(5, Duration.ofSeconds(1)));
    assertThat(client.requestToken(rebuilt, 1, false))
        .as("the new version's window starts with the 10 passes").isEqualTo(TokenService.Result.REFUSED);
    assertThat(client.requestToken(global(10), 1, false))
        .as("the old version's window still holds its 10 passes")
        .isEqualTo(TokenService.Result.REFUSED);
    at(1000);
    assertThat(client.requestToken(rebuilt, 1, false).status()).isEqualTo(TokenService.Result.Status.OK);
    assertThat(client.requestToken(global(10), 1, false).remaining()).isEqualTo(8);
  }

  @Test
  void tokenService_perInstance_multipliesByConnectedInstances() {
    InMemoryTokenService.Client a = service.connect("shop");
    InMemoryTokenService.Client b = service.connect("shop");
    FlowRule rule = FlowRule.qps("R", 3).withCluster(ClusterMode.perInstance("orders"));

    assertThat(a.requestToken(rule, 4, false)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(2));
    assertThat(b.requestToken(rule, 2, false)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(0));
    assertThat(a.requestToken(rule, 1, false)).isEqualTo(TokenService.Result.REFUSED);
    assertThat(a.instances("orders")).hasValue(2);

    b.close();
    at(1000);
    // a counts itself: never a threshold of 0
    assertThat(a.requestToken(rule, 3, false)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(0));
    assertThat(service.connected("shop")).isEqualTo(1);
  }

  @Test
  void tokenService_namespaces_doNotShareWindows() {
    TokenService shop = service.connect("shop");
    TokenService billing = service.connect("billing");
    assertThat(shop.requestToken(global(1), 1, false).status()).isEqualTo(TokenService.Result.Status.OK);
    assertThat(billing.requestToken(global(1), 1, false).status())
        .isEqualTo(TokenService.Result.Status.OK);
    assertThat(shop.requestToken(global(1), 1, false)).isEqualTo(TokenService.Result.REFUSED);
  }

  @Test
  void tokenService_namespaceRequestLimit_answersTooManyRequests() {
    InMemoryTokenService limited = new InMemoryTokenService(clock, 3);
    TokenService client = limited.connect("shop");
    FlowRule rule = global(100);
    for (int i = 0; i < 3; i++) {
      assertThat(client.requestToken(rule, 1, false).status()).isEqualTo(TokenService.Result.Status.OK);
    }
    assertThat(client.requestToken(rule, 1, false)).isEqualTo(TokenService.Result.TOO_MANY_REQUESTS);
    at(1000);
    assertThat(client.requestToken(rule, 1, false).status()).isEqualTo(TokenService.Result.Status.OK);
  }

  @Test
  void tokenService_concurrencyTokens_areHeldReleasedAndExpire() {
    InMemoryTokenService.Client a = service.connect("shop");
    InMemoryTokenService.Client b = service.connect("shop");
    FlowRule rule = global(2);

    TokenService.Result first = a.acquireConcurrency(rule, 1);
    TokenService.Result second = b.acquireConcurrency(rule, 1);
    assertThat(first.status()).isEqualTo(TokenService.Result.Status.OK);
    assertThat(second.tokenId()).isNotEqualTo(first.tokenId());
    assertThat(a.acquireConcurrency(rule, 1)).isEqualTo(TokenService.Result.REFUSED);

    assertThat(a.releaseConcurrency(first.tokenId())).isTrue();
    assertThat(a.releaseConcurrency(first.tokenId())).isFalse();
    TokenService.Result third = a.acquireConcurrency(rule, 1);
    assertThat(third.status()).isEqualTo(TokenService.Result.Status.OK);

    b.close(); // a disconnected holder gives its tokens back
    assertThat(a.acquireConcurrency(rule, 1).status()).isEqualTo(TokenService.Result.Status.OK);
    assertThat(a.acquireConcurrency(rule, 1)).isEqualTo(TokenService.Result.REFUSED);

    at(2000); // leases of 2 s expire
    assertThat(a.acquireConcurrency(rule, 2).status()).isEqualTo(TokenService.Result.Status.OK);
  }

  // ---- the engine's side ----

  private String call(GuardEngine engine) {
    try (Entry ignored = engine.resource("R").enter()) {
      return "P";
    } catch (RefusedException refused) {
      return "B";
    }
  }

  private String calls(GuardEngine engine, int n) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < n; i++) {
      out.append(call(engine));
    }
    return out.toString();
  }

  private GuardEngine engine(TokenService tokens) {
    return GuardEngine.builder().clock(clock).tokenService(tokens).build();
  }

  @Test
  void engines_sharingAService_shareOneGlobalLimit() {
    GuardEngine a = engine(service.connect("shop"));
    GuardEngine b = engine(service.connect("shop"));
    a.apply(a.ruleSet().withRulesOf("R", List.of(global(5))));
    b.apply(b.ruleSet().withRulesOf("R", List.of(global(5))));

    assertThat(calls(a, 3)).isEqualTo("PPP");
    assertThat(calls(b, 3)).isEqualTo("PPB");
    assertThat(calls(a, 1)).isEqualTo("B");
    at(1000);
    assertThat(calls(b, 6)).isEqualTo("PPPPPB");
    assertThat(a.tokenService()).hasValueSatisfying(
        tokens -> assertThat(tokens.instances("orders")).hasValue(2));
    assertThat(GuardEngine.builder().build().tokenService()).isEmpty();
  }

  @Test
  void engine_shouldWait_waitsThroughTheEngineClockThenPasses() {
    GuardEngine engine = engine((rule, permits, prioritized) -> TokenService.Result.shouldWait(100));
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(global(0))));
    long before = clock.nanoTime();

    assertThat(call(engine)).isEqualTo("P");
    assertThat(clock.nanoTime() - before).isEqualTo(100_000_000L);
  }

  @Test
  void engine_prioritizedCall_isAskedAsPrioritized() {
    List<Boolean> asked = new ArrayList<>();
    GuardEngine engine = engine((rule, permits, prioritized) -> {
      asked.add(prioritized);
      return TokenService.Result.OK;
    });
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(global(0))));
    try (Entry ignored = engine.resource("R").entryType(EntryType.IN).permits(1).prioritized().enter()) {
      assertThat(asked).containsExactly(true);
    } catch (RefusedException refused) {
      throw new AssertionError(refused);
    }
  }

  @Test
  void engine_failure_fallsBackToTheLocalRuleByDefault() {
    GuardEngine failing = engine((rule, permits, prioritized) -> TokenService.Result.FAILED);
    failing.apply(failing.ruleSet().withRulesOf("R", List.of(global(2))));
    assertThat(calls(failing, 3)).isEqualTo("PPB");

    GuardEngine throwing = engine((rule, permits, prioritized) -> {
      throw new IllegalStateException("backend down");
    });
    throwing.apply(throwing.ruleSet().withRulesOf("R", List.of(global(0))));
    assertThat(calls(throwing, 1)).isEqualTo("B");

    GuardEngine busy = engine((rule, permits, prioritized) -> TokenService.Result.TOO_MANY_REQUESTS);
    busy.apply(busy.ruleSet().withRulesOf("R", List.of(global(1))));
    assertThat(calls(busy, 2)).isEqualTo("PB");
  }

  @Test
  void engine_failure_passesWhenTheRuleDoesNotFallBack() {
    GuardEngine failing = engine((rule, permits, prioritized) -> TokenService.Result.FAILED);
    failing.apply(failing.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 0)
        .withCluster(ClusterMode.global("orders").withFallbackToLocal(false)))));
    assertThat(calls(failing, 3)).isEqualTo("PPP");
  }

  @Test
  void engine_withoutTokenService_treatsClusterRulesAsFailed() {
    GuardEngine alone = GuardEngine.builder().clock(clock).build();
    alone.apply(alone.ruleSet().withRulesOf("R", List.of(global(1))));
    assertThat(calls(alone, 2)).isEqualTo("PB");
  }

  @Test
  void engine_blockedByTheService_refusesEvenUnderTheLocalLimit() {
    GuardEngine engine = engine((rule, permits, prioritized) -> TokenService.Result.REFUSED);
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(global(100))));
    assertThat(calls(engine, 1)).isEqualTo("B");
    assertThat(engine.stats("R").totalRefused()).isEqualTo(1);
  }
}
