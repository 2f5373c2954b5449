package dev.guard.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.engine.GuardEngine;
import dev.guard.grpc.Servers.Transport;
import dev.guard.testkit.ManualClock;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Unary calls through the server interceptor on both transports: admitted calls reach the
 * handler, refused ones get their status and the pushback trailer and never start it; per-value
 * limits by metadata, origins from metadata, errors by status, breakers opened by them.
 */
class Issue38GrpcUnaryTest {

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

  private Channel guarded(Transport transport, GuardServerInterceptor interceptor) {
    servers.guard(interceptor);
    return servers.channel(transport);
  }

  private void rules(Rule... rules) {
    engine.apply(engine.ruleSet().withRulesOf(UNARY, List.of(rules)));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void unary_overTheLimit_isRefusedWithResourceExhaustedAndPushback_beforeTheHandler(
      Transport transport) {
    Channel channel = guarded(transport, GuardServerInterceptor.of(engine));
    rules(FlowRule.qps(UNARY, 1));

    assertThat(Calls.unary(channel, "a")).isEqualTo("echo:a");
    StatusRuntimeException refused = Calls.failure(() -> Calls.unary(channel, "b"));

    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(refused.getStatus().getDescription()).isEqualTo("refused by guard (flow): " + UNARY);
    assertThat(Long.parseLong(Calls.pushback(refused))).isBetween(1L, 1000L);
    assertThat(servers.service.started).hasValue(1);
    assertThat(engine.stats(UNARY).totalPass()).isEqualTo(1);
    assertThat(engine.stats(UNARY).totalRefused()).isEqualTo(1);
    assertThat(engine.stats(UNARY).concurrency()).isZero();

    clock.advance(Duration.ofSeconds(1));
    assertThat(Calls.unary(channel, "c")).isEqualTo("echo:c");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void perValue_metadataKeys_limitEachValueOnItsOwn_andAbsentIsAValueToo(Transport transport) {
    Channel channel = guarded(transport, GuardServerInterceptor.builder(engine)
        .argumentKeys("x-api-key").build());
    rules(PerValueRule.qps(UNARY, 0, 1));

    assertThat(Calls.unary(channel, "1", Map.of("x-api-key", "alice"))).isEqualTo("echo:1");
    assertThat(Calls.unary(channel, "2", Map.of("x-api-key", "bob"))).isEqualTo("echo:2");
    assertThat(Calls.unary(channel, "3")).isEqualTo("echo:3");
    StatusRuntimeException alice = Calls.failure(
        () -> Calls.unary(channel, "4", Map.of("x-api-key", " alice ")));
    StatusRuntimeException nobody = Calls.failure(() -> Calls.unary(channel, "5"));

    assertThat(alice.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(alice.getStatus().getDescription()).contains("(per-value)");
    assertThat(Calls.pushback(alice)).isNotNull();
    assertThat(nobody.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(servers.service.started).hasValue(3);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void origin_fromMetadata_deniedCallerGetsPermissionDenied_withoutPushback(Transport transport) {
    Channel channel = guarded(transport, GuardServerInterceptor.builder(engine)
        .originKey("X-Caller").build());
    rules(OriginRule.deny(UNARY, "crawler"));

    assertThat(Calls.unary(channel, "a", Map.of("x-caller", "shop"))).isEqualTo("echo:a");
    StatusRuntimeException denied = Calls.failure(
        () -> Calls.unary(channel, "b", Map.of("x-caller", "crawler")));

    assertThat(denied.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(Calls.pushback(denied)).as("an origin list knows no wait").isNull();
    assertThat(servers.service.started).hasValue(1);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void breaker_opensFromUnavailableStatuses_thenCallsGetUnavailableWithoutTheHandler(
      Transport transport) {
    Channel channel = guarded(transport, GuardServerInterceptor.of(engine));
    rules(CircuitBreakerRule.errorCount(UNARY, 1).withMinCalls(2)
        .withOpenFor(Duration.ofSeconds(10)));

    for (int i = 0; i < 2; i++) {
      assertThat(Calls.failure(() -> Calls.unary(channel, "status:UNAVAILABLE")).getStatus()
          .getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    }
    StatusRuntimeException open = Calls.failure(() -> Calls.unary(channel, "a"));

    assertThat(open.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(open.getStatus().getDescription()).contains("(circuit-breaker)");
    assertThat(Calls.pushback(open)).isEqualTo("10000");
    assertThat(servers.service.started).hasValue(2);
    assertThat(engine.stats(UNARY).totalException()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void statuses_onlyTheErrorCodesCount_aHandlersExceptionAsUnknown(Transport transport) {
    Channel channel = guarded(transport, GuardServerInterceptor.of(engine));

    Calls.failure(() -> Calls.unary(channel, "status:NOT_FOUND"));
    Calls.failure(() -> Calls.unary(channel, "status:RESOURCE_EXHAUSTED"));
    Calls.failure(() -> Calls.unary(channel, "status:INTERNAL"));
    StatusRuntimeException thrown = Calls.failure(() -> Calls.unary(channel, "throw"));

    assertThat(thrown.getStatus().getCode()).isEqualTo(Status.Code.UNKNOWN);
    assertThat(engine.stats(UNARY).totalPass()).isEqualTo(4);
    assertThat(engine.stats(UNARY).totalException()).as("INTERNAL and the exception").isEqualTo(2);
    assertThat(engine.stats(UNARY).concurrency()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void errorCodes_configured_replaceTheDefaults(Transport transport) {
    Channel channel = guarded(transport, GuardServerInterceptor.builder(engine)
        .errorCodes(java.util.Set.of(Status.Code.NOT_FOUND)).build());

    Calls.failure(() -> Calls.unary(channel, "status:NOT_FOUND"));
    Calls.failure(() -> Calls.unary(channel, "status:INTERNAL"));

    assertThat(engine.stats(UNARY).totalException()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void refusalStatus_configured_isWhatTheClientGets_withTheTrailerStill(Transport transport) {
    Channel channel = guarded(transport, GuardServerInterceptor.builder(engine)
        .refusalStatus(refused -> refused instanceof RefusedException.Flow
            ? Status.UNAVAILABLE.withDescription("busy") : GrpcStatuses.refusalStatus(refused))
        .build());
    rules(FlowRule.qps(UNARY, 1));

    Calls.unary(channel, "a");
    StatusRuntimeException refused = Calls.failure(() -> Calls.unary(channel, "b"));

    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(refused.getStatus().getDescription()).isEqualTo("busy");
    assertThat(Calls.pushback(refused)).isNotNull();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void nestedRefusal_inTheHandler_isAnsweredAsARefusal_inTheCallsContext_withNoError(
      Transport transport) {
    GuardEngine contexts = GuardEngine.builder().clock(clock).contextStatistics(true).build();
    Channel channel = guarded(transport, GuardServerInterceptor.builder(contexts)
        .entrance("shop").build());
    contexts.apply(contexts.ruleSet().withRulesOf("inventory",
        List.of(FlowRule.qps("inventory", 0))));
    servers.service.nested = () -> contexts.resource("inventory").enter().close();

    StatusRuntimeException refused = Calls.failure(() -> Calls.unary(channel, "a"));

    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(refused.getStatus().getDescription()).isEqualTo("refused by guard (flow): inventory");
    assertThat(contexts.stats("inventory").context("shop")).hasValueSatisfying(
        stats -> assertThat(stats.totalRefused()).isEqualTo(1));
    assertThat(contexts.stats(UNARY).totalPass()).isEqualTo(1);
    assertThat(contexts.stats(UNARY).totalException()).isZero();
    assertThat(contexts.stats(UNARY).concurrency()).isZero();
  }
}
