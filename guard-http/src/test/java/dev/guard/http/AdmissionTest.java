package dev.guard.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The one inbound admission as an adapter of a server guard does not know uses it: read the
 * request into a view, ask {@link InboundGate#admit}, write the refusal or run the handler, and
 * finish once. The servers themselves are checked by {@link InboundContract}.
 */
class AdmissionTest {

  private static final String ORDERS = "GET /orders/{id}";

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).contextStatistics(true).build();
  private final InboundGate gate = InboundGate.of(HttpInbound.of(engine).entrance("shop")
      .originHeader("X-Caller").rateLimitHeaders(true));

  /** A server's own request object, as an unknown server would have it. */
  private record Call(String method, String path, Map<String, String> headers) {
    static Call of(String method, String path) {
      return new Call(method, path, Map.of("X-Caller", "mobile"));
    }
  }

  private Admission admit(Call call) {
    HttpInbound.Request view = HttpInbound.Request.of(call, call.method(), call.path(),
        (in, name) -> in.headers().get(name), in -> "127.0.0.1");
    return gate.admit(view, view.method(), view.path());
  }

  @Test
  void admit_ambiguousPath_refusesWith400BeforeAnySettingRuns() {
    InboundGate throwing = InboundGate.of(HttpInbound.of(engine).origin(request -> {
      throw new AssertionError("the origin function ran");
    }));
    Admission admission = throwing.admit(HttpInbound.Request.of(Call.of("GET", "/a/../b"), "GET",
        "/a/../b", (in, name) -> null, in -> ""), "GET", "/a/../b");

    assertThat(admission.refusal())
        .isEqualTo(new Admission.Refusal(InboundGate.AMBIGUOUS_PATH, null));
    assertThat(admission.finish(200)).as("nothing to finish").isFalse();
  }

  @Test
  void admit_overTheLimit_givesTheRefusalWithItsHeaders_andNothingToFinish() {
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 1))));
    admit(Call.of("GET", "/orders/1")).finish(200);

    Admission refused = admit(Call.of("GET", "/orders/2"));

    Admission.Refusal refusal = refused.refusal();
    assertThat(refusal).isNotNull();
    assertThat(refusal.status()).isEqualTo(429);
    assertThat(headers(refusal)).containsEntry(InboundGate.RATE_LIMIT, "\"resource\";r=0;t=1")
        .containsEntry("Retry-After", "1");
    assertThat(refused.finish(200)).isFalse();
    assertThat(engine.stats(ORDERS).totalRefused()).isEqualTo(1);
    assertThat(engine.stats(ORDERS).concurrency()).isZero();
  }

  @Test
  void admit_admitted_runsTheHandlerInTheRequestsContext_untilClosedAndFinished() {
    GuardedResource nested = engine.resource("inventory");
    Admission admission = admit(Call.of("GET", "/orders/1"));

    nested.enter().close();
    admission.close();
    assertThat(admission.finish(200)).isTrue();
    nested.enter().close();

    assertThat(engine.stats("inventory").totalPass()).isEqualTo(2);
    assertThat(engine.stats("inventory").context("shop")).hasValueSatisfying(
        stats -> assertThat(stats.totalPass()).isEqualTo(1));
  }

  @Test
  void finish_exitsOnce_recordingTheStatusAsAnErrorOnce() {
    Admission admission = admit(Call.of("GET", "/orders/1"));

    assertThat(admission.finish(500)).isTrue();
    assertThat(admission.finish(500)).isFalse();

    assertThat(engine.stats(ORDERS).totalException()).isEqualTo(1);
    assertThat(engine.stats(ORDERS).concurrency()).isZero();
  }

  @Test
  void finish_racingOnTwoThreads_exitsOnce() throws Exception {
    Admission admission = admit(Call.of("GET", "/orders/1"));
    CyclicBarrier start = new CyclicBarrier(2);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      Callable<Boolean> finish = () -> {
        start.await(10, TimeUnit.SECONDS);
        return admission.finish(500);
      };
      List<Future<Boolean>> results = threads.invokeAll(List.of(finish, finish));

      assertThat(List.of(results.get(0).get(), results.get(1).get())).containsOnlyOnce(true);
    } finally {
      threads.shutdownNow();
    }
    assertThat(engine.stats(ORDERS).totalException()).isEqualTo(1);
    assertThat(engine.stats(ORDERS).concurrency()).isZero();
  }

  @Test
  void finish_afterAFailure_recordsTheFailure() {
    Admission admission = admit(Call.of("GET", "/orders/1"));

    admission.failed(new IOException("client went away"));
    admission.finish(200);

    assertThat(engine.stats(ORDERS).totalException()).isEqualTo(1);
  }

  @Test
  void refusedInside_isAnsweredAndNoErrorOfTheRequest() {
    Admission admission = admit(Call.of("GET", "/orders/1"));
    RefusedException nested = refusalOf("inventory");

    Admission.Refusal answer = admission.refusedInside(nested);
    admission.finish(answer.status());

    assertThat(answer.status()).isEqualTo(429);
    assertThat(engine.stats(ORDERS).totalException()).isZero();
    assertThat(engine.stats(ORDERS).concurrency()).isZero();
  }

  @Test
  void refusedInside_aRefusedRequest_isRejected() {
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 0))));
    Admission refused = admit(Call.of("GET", "/orders/1"));

    assertThatThrownBy(() -> refused.refusedInside(refusalOf("inventory")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("refused, not admitted");
  }

  private RefusedException refusalOf(String resource) {
    engine.apply(engine.ruleSet().withRulesOf(resource, List.of(FlowRule.qps(resource, 0))));
    try {
      engine.resource(resource).enter().close();
    } catch (RefusedException refused) {
      return refused;
    }
    throw new AssertionError(resource + " was not refused");
  }

  private static Map<String, String> headers(Admission.Refusal refusal) {
    Map<String, String> headers = new LinkedHashMap<>();
    refusal.headers(headers::put);
    return headers;
  }
}
