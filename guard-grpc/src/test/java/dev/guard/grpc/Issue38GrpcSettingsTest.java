package dev.guard.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.rules.RuleFormat;
import dev.guard.testkit.ManualClock;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The interceptors' settings and the rules they read, without a transport: bad settings fail
 * early naming the setting, rules come from the engine however they were made (rule values, a JSON
 * rule document; the DSL's in guard-kotlin-check's GrpcFromKotlinTest), the resource bound holds, metadata values are bounded, and a cancel past the call's
 * deadline counts as {@code DEADLINE_EXCEEDED}.
 */
class Issue38GrpcSettingsTest {

  private static final String CHAT = EchoService.CHAT.getFullMethodName();

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  private FakeCalls.Server call(GuardServerInterceptor interceptor) {
    FakeCalls.Server call = new FakeCalls.Server();
    interceptor.interceptCall(call, new Metadata(), new FakeCalls.Handler());
    return call;
  }

  @Test
  void settings_badValues_failNamingTheSetting() {
    GuardServerInterceptor.Builder server = GuardServerInterceptor.builder(engine);
    assertThatThrownBy(() -> server.originKey("x-caller-bin"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("originKey must be")
        .hasMessageEndingWith("was 'x-caller-bin'");
    assertThatThrownBy(() -> server.argumentKeys("api key"))
        .hasMessageStartingWith("argumentKeys must be an ASCII metadata key");
    assertThatThrownBy(server::argumentKeys).hasMessage("argumentKeys must name at least one key, was []");
    assertThatThrownBy(() -> server.entrance(" ")).hasMessage("entrance must not be blank, was ' '");
    assertThatThrownBy(() -> server.maxResources(0)).hasMessage("maxResources must be > 0, was 0");
    assertThatThrownBy(() -> GuardClientInterceptor.builder(engine).argumentKeys(""))
        .hasMessage("argumentKeys must not be blank, was ''");
  }

  @Test
  void rules_fromARuleSetAndFromJson_areTheEnginesRulesForTheMethod() {
    GuardServerInterceptor interceptor = GuardServerInterceptor.of(engine);
    engine.apply(RuleSet.of(FlowRule.qps(CHAT, 1)));
    call(interceptor);
    assertThat(call(interceptor).closes).as("refused by the rule set's rule").hasValue(1);

    engine.apply(RuleFormat.parse("{\"version\": 1, \"flow\": [{\"resource\": \"" + CHAT
        + "\", \"qps\": 3}]}"));
    clock.advance(Duration.ofSeconds(1));
    call(interceptor);
    call(interceptor);
    call(interceptor);
    assertThat(call(interceptor).closes).as("refused by the JSON rule").hasValue(1);
    clock.advance(Duration.ofSeconds(2));
    assertThat(engine.metricsTotals(CHAT).pass()).as("in the metrics, as any resource").isEqualTo(4);
    assertThat(engine.metricsTotals(CHAT).flowRefused()).isEqualTo(2);
  }

  @Test
  void maxResources_furtherMethodsShareTheOverflowResource_unlessTheyHaveRules() {
    GuardClientInterceptor client = GuardClientInterceptor.builder(engine).maxResources(1).build();
    FakeCalls.Client sent = new FakeCalls.Client();
    client.interceptCall(EchoService.UNARY, io.grpc.CallOptions.DEFAULT, FakeCalls.channel(sent))
        .start(new io.grpc.ClientCall.Listener<>() {}, new Metadata());
    client.interceptCall(EchoService.CHAT, io.grpc.CallOptions.DEFAULT, FakeCalls.channel(sent))
        .start(new io.grpc.ClientCall.Listener<>() {}, new Metadata());

    assertThat(client.overflows()).isEqualTo(1);
    assertThat(engine.stats(GuardClientInterceptor.OVERFLOW_RESOURCE).totalPass()).isEqualTo(1);
    assertThat(engine.stats(EchoService.UNARY.getFullMethodName()).totalPass()).isEqualTo(1);
  }

  @Test
  void argumentValues_longOnesAreDigested_absentOnesAreTheEmptyValue() {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("x-key", Metadata.ASCII_STRING_MARSHALLER), "k".repeat(500));
    Object[] args = MetadataArguments.of("argumentKeys", "X-Key", "x-tenant").apply(headers);

    assertThat((String) args[0]).startsWith("sha256:").hasSize(7 + 64);
    assertThat(args[1]).isEqualTo("");
  }

  @Test
  void cancel_afterTheCallsDeadline_countsAsDeadlineExceeded_beforeItAsCancelled()
      throws Exception {
    GuardServerInterceptor interceptor = GuardServerInterceptor.of(engine);
    AtomicLong ticks = new AtomicLong();
    Deadline.Ticker ticker = new Deadline.Ticker() {
      @Override
      public long nanoTime() {
        return ticks.get();
      }
    };
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    try {
      Context.CancellableContext context = Context.current()
          .withDeadline(Deadline.after(1, TimeUnit.HOURS, ticker), scheduler);
      ServerCall.Listener<String> early = context.call(() -> interceptor.interceptCall(
          new FakeCalls.Server(), new Metadata(), new FakeCalls.Handler()));
      ServerCall.Listener<String> late = context.call(() -> interceptor.interceptCall(
          new FakeCalls.Server(), new Metadata(), new FakeCalls.Handler()));

      early.onCancel();
      ticks.addAndGet(TimeUnit.HOURS.toNanos(2));
      late.onCancel();
      context.cancel(null);
    } finally {
      scheduler.shutdownNow();
    }

    assertThat(engine.stats(CHAT).concurrency()).isZero();
    assertThat(engine.stats(CHAT).totalException()).as("DEADLINE_EXCEEDED only").isEqualTo(1);
  }

  @Test
  void firstEnding_decidesTheOutcome_laterOnesChangeNothing() {
    GuardServerInterceptor interceptor = GuardServerInterceptor.builder(engine)
        .errorCodes(Set.of(Status.Code.UNAVAILABLE)).build();
    FakeCalls.Handler handler = new FakeCalls.Handler();
    ServerCall.Listener<String> listener = interceptor.interceptCall(new FakeCalls.Server(),
        new Metadata(), handler);

    handler.call.close(Status.OK, new Metadata());
    listener.onCancel();
    handler.call.close(Status.UNAVAILABLE, new Metadata());

    assertThat(engine.stats(CHAT).totalException()).isZero();
    assertThat(engine.stats(CHAT).concurrency()).isZero();
  }
}
