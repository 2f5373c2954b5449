package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.Rule;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class GuardTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  @Test
  void decorate_overQps_refusesUntilTheWindowMoves() {
    Supplier<String> limited = Guard.of("createOrder").qps(2).on(engine).decorate(() -> "ok");

    assertThat(limited.get()).isEqualTo("ok");
    assertThat(limited.get()).isEqualTo("ok");
    assertThatThrownBy(limited::get).isInstanceOf(RefusedException.Flow.class);
    clock.advance(Duration.ofSeconds(1));
    assertThat(limited.get()).isEqualTo("ok");
  }

  @Test
  void of_nullOrBlank_isRejectedNamingTheParameter() {
    assertThatThrownBy(() -> Guard.of(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("resource");
    assertThatThrownBy(() -> Guard.of("")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resource");
  }

  @Test
  void steps_returnNewGuards_leavingTheTemplateUnchanged() {
    Guard template = Guard.of("r");
    Guard limited = template.qps(5);

    assertThat(template.flowRules()).isEmpty();
    assertThat(limited.flowRules()).containsExactly(FlowRule.qps("r", 5));
    assertThat(limited).isNotSameAs(template).isEqualTo(Guard.of("r").qps(5));
  }

  @Test
  void badValues_areRejectedNamingTheField() {
    assertThatThrownBy(() -> Guard.of("r").qps(-1))
        .hasMessage("qps must be >= 0, was -1");
    assertThatThrownBy(() -> Guard.of("r").qps(-1.5))
        .hasMessage("qps must be finite and >= 0, was -1.5");
    assertThatThrownBy(() -> Guard.of("r").qps(Double.NaN)).hasMessageContaining("qps");
    assertThatThrownBy(() -> Guard.of("r").concurrency(-2))
        .hasMessage("concurrency must be >= 0, was -2");
    assertThatThrownBy(() -> Guard.of("r").qps(1).warmUp(Duration.ofSeconds(-1)))
        .hasMessageContaining("warmUpPeriod");
    assertThatThrownBy(() -> Guard.of("r").qps(1).warmUp(Duration.ofSeconds(1), 1))
        .hasMessage("coldFactor must be > 1, was 1");
    assertThatThrownBy(() -> Guard.of("r").qps(1).pacing(Duration.ofMillis(-1)))
        .hasMessageContaining("maxQueueingTime");
  }

  @Test
  void warmUpAndPacing_inEitherOrder_paceAtTheColdWarmUpRate() {
    // cold rate 10 / 3 per second: a burst is spaced 300 ms apart (100 ms when warm)
    for (Guard paced : List.of(
        Guard.of("a").qps(10).warmUp(Duration.ofSeconds(10)).pacing(Duration.ofSeconds(1)),
        Guard.of("b").qps(10).pacing(Duration.ofSeconds(1)).warmUp(Duration.ofSeconds(10)))) {
      ManualClock burstClock = new ManualClock();
      Supplier<String> call = paced.on(GuardEngine.builder().clock(burstClock).build())
          .decorate(() -> "ok");
      long start = burstClock.nanoTime();

      call.get();
      call.get();
      call.get();

      assertThat(Duration.ofNanos(burstClock.nanoTime() - start)).isEqualTo(Duration.ofMillis(600));
    }
  }

  @Test
  void businessException_passesThroughAsTheSameInstance_andIsCounted() {
    IllegalStateException failure = new IllegalStateException("boom");
    Supplier<String> failing = Guard.of("r").on(engine).decorate(() -> {
      throw failure;
    });

    assertThatThrownBy(failing::get).isSameAs(failure);
    assertThat(engine.stats("r").totalException()).isEqualTo(1);
    assertThat(engine.stats("r").concurrency()).isZero();
  }

  @Test
  void decorateCallable_checkedException_passesThroughUnchanged() {
    IOException failure = new IOException("disk");
    Callable<String> failing = Guard.of("r").on(engine).decorateCallable(() -> {
      throw failure;
    });

    assertThatThrownBy(failing::call).isSameAs(failure);
  }

  @Test
  void decorateFunction_andRunnable_runUnderTheGuard() {
    Function<Integer, Integer> twice = Guard.of("f").qps(1).on(engine).decorateFunction(x -> 2 * x);
    AtomicInteger runs = new AtomicInteger();
    Runnable counted = Guard.of("g").qps(1).on(engine).decorateRunnable(runs::incrementAndGet);

    assertThat(twice.apply(21)).isEqualTo(42);
    assertThatThrownBy(() -> twice.apply(1)).isInstanceOf(RefusedException.Flow.class);
    counted.run();
    assertThatThrownBy(counted::run).isInstanceOf(RefusedException.Flow.class);
    assertThat(runs).hasValue(1);
  }

  @Test
  void fallback_receivesTheRefusal() {
    Guard guard = Guard.of("r").qps(0).on(engine);

    assertThat(guard.callOrElse(() -> "body", refused -> "fallback:" + refused.resource()))
        .isEqualTo("fallback:r");
    assertThat(guard.decorateOrElse(() -> "body", refused -> "later").get()).isEqualTo("later");
    List<String> ran = new ArrayList<>();
    assertThatThrownBy(() -> guard.run(() -> ran.add("x"))).isInstanceOf(RefusedException.Flow.class);
    assertThat(ran).isEmpty();
  }

  @Test
  void andThen_refusalBySecond_releasesTheFirst() {
    Guard both = Guard.of("outer").qps(10).andThen(Guard.of("inner").qps(1)).on(engine);
    List<String> trail = new ArrayList<>();

    both.run(() -> trail.add("first"));
    assertThatThrownBy(() -> both.run(() -> trail.add("second")))
        .isInstanceOf(RefusedException.Flow.class)
        .satisfies(e -> assertThat(((RefusedException.Flow) e).resource()).isEqualTo("inner"));

    assertThat(trail).containsExactly("first");
    assertThat(engine.stats("outer").concurrency()).isZero();
    assertThat(engine.stats("outer").totalPass()).isEqualTo(2);
    assertThat(engine.stats("inner").totalRefused()).isEqualTo(1);
  }

  @Test
  void declaration_identicalIsNoOp_differentReplacesAndIsHeard() {
    List<String> heard = new ArrayList<>();
    GuardEngine listened = GuardEngine.builder().clock(clock).listener(new EngineListener() {
      @Override
      public void onRulesReplaced(String resource, List<Rule> previous, List<Rule> current) {
        heard.add(resource + ":" + current);
      }
    }).build();

    Guard.of("r").qps(1).on(listened).call(() -> "x");
    Guard.of("r").qps(1).on(listened).decorate(() -> "x");
    Guard.of("r").qps(2).on(listened).decorate(() -> "x");

    assertThat(heard).hasSize(2);
    assertThat(listened.rules("r")).containsExactly(FlowRule.qps("r", 2));
  }

  @Test
  void guardWithoutRules_leavesLoadedRulesAlone() {
    engine.apply(engine.ruleSet().withRulesOf("r", List.of(FlowRule.qps("r", 0))));

    assertThatThrownBy(() -> Guard.of("r").on(engine).call(() -> "x"))
        .isInstanceOf(RefusedException.Flow.class);
  }

  @Test
  void originAndLimitApp_scopeARule() {
    Guard mobile = Guard.of("r").qps(1).fromOrigin("mobile").origin("mobile").on(engine);
    Guard web = Guard.of("r").qps(1).fromOrigin("mobile").origin("web").on(engine);

    mobile.call(() -> 1);
    assertThatThrownBy(() -> mobile.call(() -> 1)).isInstanceOf(RefusedException.Flow.class);
    assertThat(web.call(() -> 2)).isEqualTo(2);
  }

  @Test
  void entryTypeIn_isCountedAsInbound() {
    Guard.of("in").entryType(EntryType.IN).on(engine).call(() -> 1);
    Guard.of("out").on(engine).call(() -> 1);

    assertThat(engine.inboundStats().totalPass()).isEqualTo(1);
  }

  @Test
  void fromEntrance_appliesOnlyUnderThatEntrance() {
    Guard viaApi = Guard.of("c").qps(1).fromEntrance("api").entrance("api").on(engine);
    Guard viaJob = Guard.of("c").qps(1).fromEntrance("api").entrance("job").on(engine);

    viaApi.call(() -> 1);
    assertThatThrownBy(() -> viaApi.call(() -> 1)).isInstanceOf(RefusedException.Flow.class);
    assertThat(viaJob.call(() -> 2)).isEqualTo(2);
    assertThat(viaJob.call(() -> 3)).isEqualTo(3);
  }

  @Test
  void relatedTo_limitsWhileTheOtherResourceIsBusy() {
    Guard writes = Guard.of("writes").qps(1).relatedTo("reads").on(engine);
    Guard reads = Guard.of("reads").on(engine);

    assertThat(writes.call(() -> "w")).isEqualTo("w");
    reads.call(() -> "r");
    assertThatThrownBy(() -> writes.call(() -> "w")).isInstanceOf(RefusedException.Flow.class);
  }

  @Test
  void prioritized_overLimit_waitsForTheNextBucketInsteadOfFailing() {
    Guard urgent = Guard.of("p").qps(1).prioritized().on(engine);
    clock.advanceMillis(100);
    urgent.call(() -> 1);
    clock.advanceMillis(500);

    assertThat(urgent.call(() -> 2)).isEqualTo(2);
    assertThat(clock.millis()).as("slept until the next bucket starts").isEqualTo(1000);
  }

  @Test
  void andThen_sameResourceTwice_isRejected() {
    assertThatThrownBy(() -> Guard.of("r").qps(1).andThen(Guard.of("r").qps(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'r'");
  }
}
