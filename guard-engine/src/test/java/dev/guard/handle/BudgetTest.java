package dev.guard.handle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.Entry;
import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.Budget;
import dev.guard.engine.GuardedResource.Budget.Policy;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link GuardedResource#budget()} reports (docs/BEHAVIOUR.md, "Budget"). */
class BudgetTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  private void apply(FlowRule... rules) {
    engine.apply(RuleSet.of(List.of(rules)));
  }

  private static void pass(GuardedResource handle, int times) {
    for (int i = 0; i < times; i++) {
      handle.enter().close();
    }
  }

  private static Policy quota(GuardedResource handle) {
    return handle.budget().map(Budget::limiting).orElseThrow();
  }

  @Test
  void quota_withoutQpsRule_isEmpty() {
    apply(FlowRule.concurrency("R", 3));
    assertThat(engine.resource("R").budget()).isEmpty();
    assertThat(engine.resource("unknown").budget()).isEmpty();
  }

  @Test
  void quota_countsDownToZeroThenRefusesAndComesBackWithTheNextBucket() {
    apply(FlowRule.qps("R", 3));
    GuardedResource r = engine.resource("R");
    assertThat(quota(r)).extracting(Policy::limit, Policy::window, Policy::remaining)
        .containsExactly(3L, Duration.ofSeconds(1), 3L);
    pass(r, 1);
    assertThat(quota(r).remaining()).isEqualTo(2);
    pass(r, 2);
    assertThat(quota(r).remaining()).isZero();
    assertThatThrownBy(r::enter).isInstanceOf(RefusedException.Flow.class);
    assertThat(quota(r).reset()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(500));
    clock.advance(quota(r).reset());
    clock.advance(Duration.ofMillis(500));
    assertThat(quota(r).remaining()).isEqualTo(3);
  }

  @Test
  void quota_remainingIsExactlyWhatIsStillAdmitted() {
    apply(FlowRule.qps("R", 5));
    GuardedResource r = engine.resource("R");
    for (int step = 0; step < 12; step++) {
      long remaining = quota(r).remaining();
      long admitted = 0;
      while (true) {
        try (Entry ignored = r.enter()) {
          admitted++;
        } catch (RefusedException.Flow refused) {
          break;
        }
      }
      assertThat(admitted).as("step %d", step).isEqualTo(remaining);
      clock.advance(Duration.ofMillis(250));
    }
  }

  @Test
  void quota_severalRules_reportsTheOneWithFewestCallsLeft() {
    apply(FlowRule.qps("R", 10), FlowRule.qps("R", 2).withOrigin("mobile"));
    GuardedResource mobile = engine.resource("R").context("api", "mobile");
    GuardedResource web = engine.resource("R").context("api", "web");
    assertThat(quota(mobile).limit()).isEqualTo(2);
    assertThat(quota(web).limit()).isEqualTo(10);
    pass(web, 9);
    assertThat(quota(mobile)).extracting(Policy::limit, Policy::remaining).containsExactly(10L, 1L);
    assertThat(quota(web).remaining()).isEqualTo(1);
  }

  @Test
  void quota_originRule_countsThatOriginOnly() {
    apply(FlowRule.qps("R", 3).withOrigin("mobile"));
    GuardedResource mobile = engine.resource("R").context("api", "mobile");
    pass(engine.resource("R").context("api", "web"), 5);
    assertThat(engine.resource("R").context("api", "web").budget()).isEmpty();
    assertThat(quota(mobile).remaining()).isEqualTo(3);
    pass(mobile, 2);
    assertThat(quota(mobile).remaining()).isEqualTo(1);
  }

  @Test
  void quota_warmUp_limitIsTheCountAndRemainingTheColdRate() {
    apply(FlowRule.qps("R", 30).withWarmUp(Duration.ofSeconds(10), 3));
    GuardedResource r = engine.resource("R").entryType(EntryType.IN);
    pass(r, 1);
    Policy cold = quota(r);
    assertThat(cold.limit()).isEqualTo(30);
    assertThat(cold.remaining()).isEqualTo(9); // cold rate 30 / 3 = 10, one taken
  }

  @Test
  void quota_pacing_remainingIsWhatTheQueueStillTakes() {
    apply(FlowRule.qps("R", 10).withShaping(FlowRule.Shaping.PACING)
        .withMaxQueueingTime(Duration.ofMillis(300)));
    GuardedResource r = engine.resource("R");
    assertThat(quota(r).remaining()).isEqualTo(4); // now, +100, +200, +300 ms
    pass(r, 1);
    assertThat(quota(r).remaining()).isEqualTo(3);
    assertThat(quota(r).reset()).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void quota_belowOneCallPerSecond_isOneCallOverLongerWindow() {
    apply(FlowRule.qps("R", 0.25));
    GuardedResource r = engine.resource("R");
    assertThat(quota(r)).extracting(Policy::limit, Policy::window, Policy::remaining)
        .containsExactly(1L, Duration.ofSeconds(4), 1L);
    pass(r, 1);
    assertThat(quota(r).remaining()).isZero();
  }
}
