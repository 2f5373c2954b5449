package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.PerValueGuard;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.InMemoryTokenService;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class PerValueGuardTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  private record Job(String tenant, int size) {}

  private static <T> String outcomes(Function<T, ?> guarded, List<T> inputs) {
    StringBuilder out = new StringBuilder();
    for (T input : inputs) {
      try {
        guarded.apply(input);
        out.append('P');
      } catch (RefusedException.PerValue refused) {
        out.append('B');
      }
    }
    return out.toString();
  }

  @Test
  void perValue_steps_declareOneRule() {
    Guard guard = Guard.of("loadCart").perValue(0, 20).burst(10).except("vip-7", 500)
        .period(Duration.ofSeconds(2)).maxValues(100);

    assertThat(guard.rules()).containsExactly(PerValueRule.qps("loadCart", 0, 20).withBurst(10)
        .withException("vip-7", 500).withPeriod(Duration.ofSeconds(2)).withMaxValues(100));
    assertThat(guard.flowRules()).isEmpty();
  }

  @Test
  void quota_and_clusterWide_declareOneRuleWithSeveralLimits() {
    Guard guard = Guard.of("api").perValue(0, 100).period(Duration.ofMinutes(1))
        .quota(10_000, Duration.ofDays(1)).clusterWide();

    assertThat(guard.rules()).containsExactly(PerValueRule.qps("api", 0, 100)
        .withPeriod(Duration.ofMinutes(1)).withQuota(10_000, Duration.ofDays(1))
        .withCluster(ClusterMode.global("api[0]")));
    assertThat(Guard.of("api").perValue(1, 5).cluster(ClusterMode.global("keys")).rules())
        .containsExactly(PerValueRule.qps("api", 1, 5).withCluster(ClusterMode.global("keys")));
  }

  @Test
  void pacingAfterAQuota_orClusterWideOnAPerInstanceMode_isRefusedAtTheStep() {
    // quota(..) and clusterWide() after pacing(..) do not compile (StageOrderCompileTest)
    PerValueGuard quoted = Guard.of("api").perValue(0, 5).quota(10, Duration.ofHours(1));
    assertThatThrownBy(() -> quoted.pacing(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("quotas must be empty");
    assertThatThrownBy(() -> Guard.of("api").perValue(0, 5).cluster(ClusterMode.perInstance("k")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("cluster.threshold must be GLOBAL");
  }

  @Test
  void quota_limitsEachValue_perMinuteAndPerHour_andARefusedCallCountsInNeither() {
    Function<String, String> call = Guard.of("api").perValue(0, 3).period(Duration.ofMinutes(1))
        .quota(5, Duration.ofHours(1)).on(engine).decorateFunction(key -> "ok " + key);

    assertThat(outcomes(call, List.of("k", "k", "k", "k", "other"))).isEqualTo("PPPBP");
    clock.advance(Duration.ofMinutes(1).plusMillis(1));
    assertThat(outcomes(call, List.of("k", "k", "k"))).as("2 left in the hour").isEqualTo("PPB");
    clock.advance(Duration.ofMinutes(1).plusMillis(1));
    assertThatThrownBy(() -> call.apply("k"))
        .isInstanceOfSatisfying(RefusedException.PerValue.class, refused ->
            assertThat(refused.retryAfter()).as("the hour's quota refills")
                .hasValue(Duration.ofHours(1).plusMillis(1).minus(Duration.ofMinutes(2).plusMillis(2))));
    clock.advance(Duration.ofHours(1));
    assertThat(outcomes(call, List.of("k", "k", "k", "k"))).isEqualTo("PPPB");
  }

  @Test
  void clusterWide_sharesEachValueBetweenEngines_throughTheTokenService() {
    InMemoryTokenService service = new InMemoryTokenService(clock);
    GuardEngine a = GuardEngine.builder().clock(clock).tokenService(service.connect("shop")).build();
    GuardEngine b = GuardEngine.builder().clock(clock).tokenService(service.connect("shop")).build();
    PerValueGuard perKey = Guard.of("api").perValue(0, 3).period(Duration.ofMinutes(1))
        .quota(4, Duration.ofHours(1)).clusterWide();
    Function<String, String> onA = perKey.on(a).decorateFunction(key -> key);
    Function<String, String> onB = perKey.on(b).decorateFunction(key -> key);

    assertThat(outcomes(onA, List.of("k", "k")) + outcomes(onB, List.of("k", "k", "j")))
        .isEqualTo("PPPBP");
    clock.advance(Duration.ofMinutes(1).plusMillis(1));
    assertThat(outcomes(onB, List.of("k", "k"))).as("the hour's 4th").isEqualTo("PB");
  }

  @Test
  void perValue_steps_leaveTheTemplateUnchanged() {
    PerValueGuard template = Guard.of("r").perValue(0, 5);
    Guard withBurst = template.burst(2);

    assertThat(template.rules()).containsExactly(PerValueRule.qps("r", 0, 5));
    assertThat(withBurst.rules()).containsExactly(PerValueRule.qps("r", 0, 5).withBurst(2));
  }

  @Test
  void decorateFunction_limitsEachValueOnItsOwn_exceptionValueHasItsOwnLimit() {
    Function<String, String> load = Guard.of("loadCart").perValue(0, 2).except("vip", 4)
        .on(engine).decorateFunction(user -> "cart of " + user);

    assertThat(outcomes(load, List.of("u1", "u1", "u1", "u2", "vip", "vip", "vip", "vip", "vip")))
        .isEqualTo("PPBPPPPPB");
    clock.advance(Duration.ofMillis(1001));
    assertThat(load.apply("u1")).isEqualTo("cart of u1");
  }

  @Test
  void decorateBiFunction_limitsOnTheChosenArgument() {
    BiFunction<String, String, String> search = Guard.of("search").perValue(1, 1).on(engine)
        .decorateBiFunction((query, tenant) -> tenant + ":" + query);

    assertThat(search.apply("shoes", "acme")).isEqualTo("acme:shoes");
    assertThat(search.apply("socks", "globex")).isEqualTo("globex:socks");
    assertThatThrownBy(() -> search.apply("hats", "acme"))
        .isInstanceOf(RefusedException.PerValue.class)
        .satisfies(refused -> {
          RefusedException.PerValue hot = (RefusedException.PerValue) refused;
          assertThat(hot.argumentIndex()).isEqualTo(1);
          assertThat(hot.value()).isEqualTo("acme");
        });
  }

  @Test
  void decorateBiFunction_lastArgumentByNegativeIndex() {
    BiFunction<String, Integer, String> get = Guard.of("get").perValue(-1, 1).on(engine)
        .decorateBiFunction((name, id) -> name + id);

    assertThat(get.apply("a", 1)).isEqualTo("a1");
    assertThatThrownBy(() -> get.apply("b", 1)).isInstanceOf(RefusedException.PerValue.class);
  }

  @Test
  void decorateKeyedFunction_limitsOnTheKey() {
    Function<Job, Integer> run = Guard.of("jobs").perValue(0, 2).on(engine)
        .decorateKeyedFunction(Job::tenant, Job::size);

    assertThat(outcomes(run, List.of(new Job("a", 1), new Job("a", 2), new Job("b", 3),
        new Job("a", 4)))).isEqualTo("PPPB");
  }

  @Test
  void decorateKeyedFunction_concurrencyPerKey_countsTheKeyOnEnterAndExit() {
    List<String> nested = new ArrayList<>();
    Function<Job, Integer>[] export = newFunctionArray();
    export[0] = Guard.of("export").perValueConcurrency(0, 1).on(engine)
        .decorateKeyedFunction(Job::tenant, job -> {
          if (job.size() > 0) {
            nested.add(outcomes(export[0], List.of(new Job(job.tenant(), 0), new Job("other", 0))));
          }
          return job.size();
        });

    assertThat(export[0].apply(new Job("a", 1))).isEqualTo(1);
    assertThat(nested).as("same key refused while a call runs, another key passes")
        .containsExactly("BP");
    assertThat(export[0].apply(new Job("a", 0))).as("the place was released at exit").isZero();
    assertThat(engine.stats("export").concurrency()).isZero();
  }

  @SuppressWarnings("unchecked")
  private static Function<Job, Integer>[] newFunctionArray() {
    return new Function[1];
  }

  @Test
  void callWithKey_limitsOnTheKey() {
    Guard perUser = Guard.of("profile").perValue(0, 1).on(engine);

    assertThat(perUser.callWithKey("u1", () -> "p1")).isEqualTo("p1");
    assertThat(perUser.callWithKey("u2", () -> "p2")).isEqualTo("p2");
    assertThatThrownBy(() -> perUser.callWithKey("u1", () -> "again"))
        .isInstanceOf(RefusedException.PerValue.class);
    assertThat(perUser.callWithKey(null, () -> "no key")).isEqualTo("no key");
  }

  @Test
  void callWithKey_composedGuard_givesTheKeyToEveryPart() {
    Guard both = Guard.of("outer").perValue(0, 2).andThen(Guard.of("inner").perValue(0, 1))
        .on(engine);

    assertThat(both.callWithKey("k", () -> "ok")).isEqualTo("ok");
    assertThatThrownBy(() -> both.callWithKey("k", () -> "ok"))
        .isInstanceOf(RefusedException.PerValue.class)
        .satisfies(refused -> assertThat(((RefusedException.PerValue) refused).resource())
            .isEqualTo("inner"));
    assertThatThrownBy(() -> both.callWithKey("k", () -> "ok"))
        .as("the outer part's tokens were not given back by the inner refusal: it exited")
        .isInstanceOf(RefusedException.PerValue.class)
        .satisfies(refused -> assertThat(((RefusedException.PerValue) refused).resource())
            .isEqualTo("outer"));
  }

  @Test
  void pacing_afterPerValue_pacesEachValue() {
    Guard guard = Guard.of("r").perValue(0, 10).pacing(Duration.ofMillis(300));

    assertThat(guard.rules()).singleElement().satisfies(rule -> {
      assertThat(((PerValueRule) rule).shaping()).isEqualTo(FlowRule.Shaping.PACING);
      assertThat(((PerValueRule) rule).maxQueueingTime()).isEqualTo(Duration.ofMillis(300));
    });
    Function<String, String> paced = guard.on(engine).decorateFunction(value -> value);
    long start = clock.nanoTime();
    paced.apply("a");
    paced.apply("a");
    paced.apply("b");
    assertThat(clock.nanoTime() - start).as("the second a waited 100 ms; b did not")
        .isEqualTo(100_000_000L);
  }

  @Test
  void except_ofAnotherTypeThanDeclared_isRejectedAsNeverMatching() {
    assertThatThrownBy(() -> Guard.of("r").perValue(0, 2).valueType(Long.class).except(7, 50))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must hold values of valueType java.lang.Long")
        .hasMessageContaining("7 (java.lang.Integer)");
  }

  @Test
  void perValueAndQps_together_bothApply() {
    Function<String, String> guarded = Guard.of("r").qps(3).perValue(0, 2).on(engine)
        .decorateFunction(value -> value);

    guarded.apply("a");
    guarded.apply("a");
    assertThatThrownBy(() -> guarded.apply("a")).isInstanceOf(RefusedException.PerValue.class);
    guarded.apply("b");
    assertThatThrownBy(() -> guarded.apply("c")).isInstanceOf(RefusedException.Flow.class);
  }
}
