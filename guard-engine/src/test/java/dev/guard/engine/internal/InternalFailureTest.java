package dev.guard.engine.internal;

import dev.guard.engine.internal.call.CallEntry;
import dev.guard.engine.internal.call.CallSite;
import dev.guard.engine.internal.registry.ResourceRegistry;
import dev.guard.engine.internal.registry.ChainCompiler;
import dev.guard.engine.internal.registry.EngineConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.spi.TimeSource;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.SystemRule;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.internal.chain.Call;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.registry.EngineParts;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.chain.SlotKind;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The engine's policy when guard itself fails, with a slot kind that fails on purpose in place of
 * a real one: the caller never sees the failure, the listeners do (docs/BEHAVIOUR.md, "When guard
 * itself fails").
 */
class InternalFailureTest {

  private static final TimeSource FROZEN = FrozenTime.SOURCE;

  /** Where a failing kind fails. */
  private enum Failure { ENTER, EXIT, COMPILE }

  /** A kind for rules of type {@code R} that fails at one point, for one resource or all. */
  private record FailingKind<R extends Rule>(SlotKind<R> real, Failure failure,
      @Nullable String resource) implements SlotKind<R> {

    @Override
    public int order() {
      return real.order();
    }

    @Override
    public Class<R> ruleType() {
      return real.ruleType();
    }

    @Override
    public boolean engineWide() {
      return real.engineWide();
    }

    @Override
    public Slot compile(String name, List<R> rules, @Nullable Slot previous, SlotContext context) {
      boolean here = resource == null || resource.equals(name);
      if (failure == Failure.COMPILE && here) {
        throw new IllegalStateException("compile fails on purpose");
      }
      return new Slot() {
        @Override
        public @Nullable RefusedException enter(Call entry) {
          if (failure == Failure.ENTER && here) {
            throw new IllegalStateException("enter fails on purpose");
          }
          return null;
        }

        @Override
        public void exit(Call entry) {
          if (failure == Failure.EXIT && here) {
            throw new IllegalStateException("exit fails on purpose");
          }
        }
      };
    }
  }

  private final List<String> reported = new CopyOnWriteArrayList<>();

  private final EngineListener listener = new EngineListener() {
    @Override
    public void onInternalError(String resource, Throwable error) {
      reported.add(resource + ": " + error.getMessage());
    }
  };

  /** An engine whose kind for {@code real}'s rules is replaced by a failing one. */
  private EngineCore engine(FailingKind<?> failing) {
    EngineParts parts = EngineParts.of(FROZEN,
        new EngineConfig(WindowGeometry.SECOND_DEFAULT, 100, 100, 100, 500, false, 300, 300_000,
            20, null, 1),
        List.of(listener), GuardEngine.hostStatus(), null);
    return new EngineCore(parts, shared -> {
      List<SlotKind<?>> kinds = new ArrayList<>();
      for (SlotKind<?> kind : ChainCompiler.kinds(shared.system())) {
        kinds.add(kind.ruleType() == failing.ruleType() ? failing : kind);
      }
      return kinds;
    });
  }

  private static FailingKind<FlowRule> failingFlow(Failure failure) {
    return new FailingKind<>(dev.guard.engine.internal.flow.FlowSlotKind.INSTANCE, failure, null);
  }

  private static CallEntry enter(EngineCore core, String resource, EntryType type) {
    return core.enter(new CallSite(core.resolve(resource), type, 1, false, null, ""), false, null);
  }

  private static long running(EngineCore core, String resource) {
    return core.existing(resource).cluster().stats().concurrency();
  }

  @Test
  void enter_whenASlotThrows_admitsTheCallAndReportsIt() {
    EngineCore core = engine(failingFlow(Failure.ENTER));
    core.ruleBook().apply(RuleSet.of(List.of(FlowRule.qps("r", 1))), "test");

    CallEntry entry = enter(core, "r", EntryType.OUT);

    assertThat(entry.refusal()).isNull();
    assertThat(running(core, "r")).isEqualTo(1);
    entry.close();
    assertThat(running(core, "r")).isZero();
    assertThat(core.existing("r").cluster().stats().totalPass(0)).isEqualTo(1);
    assertThat(reported).containsExactly("r: enter fails on purpose");
  }

  @Test
  void exit_whenASlotThrows_completesTheExitAndReportsIt() {
    EngineCore core = engine(failingFlow(Failure.EXIT));
    core.ruleBook().apply(RuleSet.of(List.of(FlowRule.qps("r", 1))), "test");
    CallEntry entry = enter(core, "r", EntryType.IN);

    entry.close();

    assertThat(running(core, "r")).isZero();
    assertThat(reported).containsExactly("r: exit fails on purpose");
  }

  @Test
  void exit_whenAnEarlySlotThrows_stillLetsTheLaterSlotsGiveBackWhatTheyHold() {
    EngineCore core = engine(new FailingKind<>(
        new dev.guard.engine.internal.origin.OriginSlotKind(), Failure.EXIT, null));
    core.ruleBook().apply(RuleSet.of(List.of(OriginRule.deny("r", "bot"), PerValueRule.concurrency("r", 0, 1))), "test");

    for (int call = 0; call < 3; call++) {
      CallEntry entry = core.enter(new CallSite(core.resolve("r"), EntryType.OUT, 1, false, null, ""), false, new Object[] {"v"});
      assertThat(entry.refusal()).as("call %d", call).isNull();
      entry.close();
    }

    assertThat(reported).hasSize(3);
  }

  @Test
  void enter_whenALateSlotThrows_theEarlierSlotsGiveBackWhatTheyGranted() {
    EngineCore core = engine(failingFlow(Failure.ENTER));
    core.ruleBook().apply(RuleSet.of(List.of(FlowRule.qps("r", 1), PerValueRule.concurrency("r", 0, 1))), "test");
    Object[] value = {"v"};
    CallSite site = new CallSite(core.resolve("r"), EntryType.OUT, 1, false, null, "");

    CallEntry unguarded = core.enter(site, false, value);
    core.ruleBook().apply(RuleSet.of(List.of(PerValueRule.concurrency("r", 0, 1))), "test"); // the failing slot is gone
    CallEntry next = core.enter(site, false, value);

    assertThat(unguarded.refusal()).isNull();
    assertThat(next.refusal()).as("the unguarded call holds no place of the value").isNull();
    next.close();
    unguarded.close();
    assertThat(core.enter(site, false, value).refusal()).isNull();
  }

  @Test
  void load_whenCompilingThrows_isRefusedAsInvalidRulesAndChangesNothing() {
    EngineCore core = engine(failingFlow(Failure.COMPILE));

    assertThatThrownBy(() -> core.ruleBook().apply(RuleSet.of(List.of(FlowRule.qps("r", 1))), "test"))
        .isInstanceOf(InvalidRulesException.class)
        .hasMessageContaining("r: its rules could not be compiled (an internal error of guard");
    assertThat(core.rules("r")).isEmpty();
    assertThat(reported).containsExactly("r: compile fails on purpose");
  }

  @Test
  void applyRules_whenCompilingThrows_isRefusedAsInvalidRulesAndChangesNothing() {
    EngineCore core = engine(failingFlow(Failure.COMPILE));

    assertThatThrownBy(() -> core.ruleBook().apply(
            RuleSet.of(List.of(FlowRule.qps("r", 1))), "test"))
        .isInstanceOf(InvalidRulesException.class)
        .satisfies(refused -> assertThat(((InvalidRulesException) refused).errors())
            .singleElement().satisfies(error -> assertThat(error.path()).isEqualTo("r")));
    assertThat(core.rules("r")).isEmpty();
    assertThat(reported).containsExactly("r: compile fails on purpose");
  }

  @Test
  void declare_whenCompilingThrows_failsOpenAndReportsIt() {
    EngineCore core = engine(failingFlow(Failure.COMPILE));

    core.declare("r", List.of(FlowRule.qps("r", 1)));

    assertThat(core.rules("r")).isEmpty();
    assertThat(enter(core, "r", EntryType.OUT).refusal()).isNull();
    assertThat(reported).containsExactly("r: compile fails on purpose");
  }

  @Test
  void firstUseOfAResource_whenItsFirstChainThrows_failsOpenAndReportsIt() {
    EngineCore core = engine(new FailingKind<>(
        dev.guard.engine.internal.breaker.BreakerSlotKind.INSTANCE, Failure.COMPILE, "late"));
    core.ruleBook().apply(RuleSet.of(CircuitBreakerRule.errorRatio("*", 0.5)), "test");

    CallEntry entry = enter(core, "late", EntryType.IN);

    assertThat(entry.refusal()).isNull();
    entry.close();
    assertThat(running(core, "late")).isZero();
    assertThat(reported).containsExactly("late: compile fails on purpose");
  }

  @Test
  void loadSystemRules_whenNoChainCompiles_isRefusedBeforeAnyResourceExistsAndCallsPass() {
    EngineCore core = engine(new FailingKind<>(
        new dev.guard.engine.internal.system.SystemSlotKind(
            new dev.guard.engine.internal.system.SystemProtection(GuardEngine.hostStatus())), Failure.COMPILE, null));

    assertThatThrownBy(() -> core.ruleBook().apply(RuleSet.of(SystemRule.of().withMaxConcurrency(5)), "test"))
        .isInstanceOf(InvalidRulesException.class);

    assertThat(core.ruleBook().current().rulesOf(SystemRule.class)).isEmpty();
    for (EntryType type : EntryType.values()) {
      CallEntry entry = enter(core, "api-" + type, type);
      assertThat(entry.refusal()).isNull();
      entry.close();
    }
    assertThat(reported).containsExactly(
        ResourceRegistry.PROBE + ": compile fails on purpose");
  }

  @Test
  void applyRules_withSystemRulesNoChainCompiles_isRefusedAndKeepsTheRulesInForce() {
    EngineCore core = engine(new FailingKind<>(
        new dev.guard.engine.internal.system.SystemSlotKind(
            new dev.guard.engine.internal.system.SystemProtection(GuardEngine.hostStatus())), Failure.COMPILE, null));

    assertThatThrownBy(() -> core.ruleBook().apply(
            RuleSet.of(List.of(SystemRule.of().withMaxConcurrency(5))), "test"))
        .isInstanceOf(InvalidRulesException.class);

    assertThat(core.ruleBook().current().rulesOf(SystemRule.class)).isEmpty();
    assertThat(enter(core, "api", EntryType.IN).refusal()).isNull();
  }
}
