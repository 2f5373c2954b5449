package dev.guard.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.engine.GuardEngine;
import dev.guard.grpc.Servers.Transport;
import dev.guard.testing.Await;
import dev.guard.testkit.ManualClock;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCallStreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The client interceptor on both transports: a refused call fails before anything is sent, with
 * a {@code StatusRuntimeException} whose cause is the refusal; failed statuses count for
 * breakers; the caller's cancel ends the call once.
 */
class Issue38GrpcClientTest {

  private static final String UNARY = EchoService.UNARY.getFullMethodName();
  private static Servers servers;

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  @BeforeAll
  static void start() throws Exception {
    servers = Servers.start();
  }

  @AfterAll
  static void stop() throws Exception {
    servers.close();
  }

  @BeforeEach
  void serveUnguarded() {
    servers.unguarded();
  }

  private Channel guarded(Transport transport, GuardClientInterceptor interceptor) {
    return ClientInterceptors.intercept(servers.channel(transport), interceptor);
  }

  private void rules(Rule... rules) {
    engine.apply(engine.ruleSet().withRulesOf(UNARY, List.of(rules)));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void refusal_failsTheCallBeforeAnythingIsSent_withTheRefusalAsCause(Transport transport) {
    Channel channel = guarded(transport, GuardClientInterceptor.of(engine));
    rules(FlowRule.qps(UNARY, 1));

    assertThat(Calls.unary(channel, "a")).isEqualTo("echo:a");
    StatusRuntimeException refused = Calls.failure(() -> Calls.unary(channel, "b"));

    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(refused.getCause()).isInstanceOf(RefusedException.Flow.class);
    assertThat(Calls.pushback(refused)).isNotNull();
    assertThat(servers.service.started).as("calls the server received").hasValue(1);
    assertThat(engine.stats(UNARY).totalRefused()).isEqualTo(1);
    assertThat(engine.stats(UNARY).concurrency()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void refusal_ofAnAsyncCall_reachesTheObserversOnError(Transport transport) throws Exception {
    Channel channel = guarded(transport, GuardClientInterceptor.of(engine));
    rules(FlowRule.qps(UNARY, 0));
    Recorder observer = new Recorder();

    ClientCalls.asyncUnaryCall(channel.newCall(EchoService.UNARY, CallOptions.DEFAULT), "a",
        observer);

    assertThat(observer.status().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(observer.status().getCause()).isInstanceOf(RefusedException.Flow.class);
    assertThat(servers.service.started).hasValue(0);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void failures_countForTheBreaker_whichThenRefusesWithUnavailable(Transport transport) {
    Channel channel = guarded(transport, GuardClientInterceptor.of(engine));
    rules(CircuitBreakerRule.errorCount(UNARY, 1).withMinCalls(2));

    Calls.failure(() -> Calls.unary(channel, "status:NOT_FOUND"));
    Calls.failure(() -> Calls.unary(channel, "status:UNAVAILABLE"));
    Calls.failure(() -> Calls.unary(channel, "status:UNAVAILABLE"));
    StatusRuntimeException open = Calls.failure(() -> Calls.unary(channel, "a"));

    assertThat(open.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(open.getCause()).isInstanceOf(RefusedException.Breaker.class);
    assertThat(servers.service.started).hasValue(3);
    assertThat(engine.stats(UNARY).totalException()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void deadlineExceeded_countsAsAFailure(Transport transport) {
    Channel channel = guarded(transport, GuardClientInterceptor.of(engine));

    StatusRuntimeException late = Calls.failure(() -> ClientCalls.blockingUnaryCall(channel,
        EchoService.UNARY, CallOptions.DEFAULT.withDeadlineAfter(100, TimeUnit.MILLISECONDS),
        "hang"));

    assertThat(late.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    assertThat(engine.stats(UNARY).totalException()).isEqualTo(1);
    assertThat(engine.stats(UNARY).concurrency()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void cancelByTheCaller_endsTheCallOnce_asNoError(Transport transport) throws Exception {
    Channel channel = guarded(transport, GuardClientInterceptor.of(engine));
    ClientCall<String, String> call = channel.newCall(EchoService.UNARY, CallOptions.DEFAULT);
    call.start(new ClientCall.Listener<>() {}, new Metadata());
    call.request(1);
    call.sendMessage("hang");
    call.halfClose();
    ServerCallStreamObserver<String> held = servers.service.hanging.poll(10, TimeUnit.SECONDS);
    assertThat(held).isNotNull();

    call.cancel("the caller gave up", null);
    call.cancel("again", null);

    assertThat(engine.stats(UNARY).concurrency()).isZero();
    Await.until("the server sees the cancel", Duration.ofSeconds(10), held::isCancelled);
    clock.advance(Duration.ofSeconds(2));
    assertThat(engine.metricsTotals(UNARY).success()).isEqualTo(1);
    assertThat(engine.metricsTotals(UNARY).exception()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void perValue_outgoingMetadataKeys_limitEachValue(Transport transport) {
    Channel channel = guarded(transport, GuardClientInterceptor.builder(engine)
        .argumentKeys("x-tenant").build());
    rules(PerValueRule.qps(UNARY, 0, 1));

    Calls.unary(channel, "a", Map.of("x-tenant", "acme"));
    Calls.unary(channel, "b", Map.of("x-tenant", "globex"));
    StatusRuntimeException refused = Calls.failure(
        () -> Calls.unary(channel, "c", Map.of("x-tenant", "acme")));

    assertThat(refused.getCause()).isInstanceOf(RefusedException.PerValue.class);
    assertThat(servers.service.started).hasValue(2);
  }
}
