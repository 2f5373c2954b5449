package dev.guard.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.grpc.Servers.Transport;
import dev.guard.testing.Await;
import dev.guard.testkit.ManualClock;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Streams through the server interceptor on both transports: a stream of any shape is one call
 * from its start to its close, and every way it can end (completion, half-close and answer,
 * cancel by the client at any point, deadline, handler error) ends it exactly once.
 */
class Issue38GrpcStreamTest {

  private static final Duration PATIENCE = Duration.ofSeconds(10);
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

  private Channel guarded(Transport transport) {
    servers.guard(GuardServerInterceptor.of(engine));
    return servers.channel(transport);
  }

  private ServerCallStreamObserver<String> heldByTheHandler() throws InterruptedException {
    ServerCallStreamObserver<String> held = servers.service.hanging.poll(10, TimeUnit.SECONDS);
    assertThat(held).as("a handler holding its call").isNotNull();
    return held;
  }

  /** Exits so far: calls that completed (the current second is closed first). */
  private long exits(String resource) {
    clock.advance(Duration.ofSeconds(2));
    return engine.metricsTotals(resource).success();
  }

  private void awaitNoPlaceHeld(String resource) {
    Await.until(resource + " holds no place", PATIENCE,
        () -> engine.stats(resource).concurrency() == 0);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void serverStreaming_isOneCallFromStartToClose_holdingItsPlaceMeanwhile(Transport transport)
      throws Exception {
    Channel channel = guarded(transport);
    String download = EchoService.DOWNLOAD.getFullMethodName();
    engine.apply(engine.ruleSet().withRulesOf(download,
        List.of(FlowRule.concurrency(download, 1))));
    Recorder first = new Recorder();
    ClientCalls.asyncServerStreamingCall(channel.newCall(EchoService.DOWNLOAD, CallOptions.DEFAULT),
        "hang", first);
    ServerCallStreamObserver<String> held = heldByTheHandler();

    Recorder second = new Recorder();
    ClientCalls.asyncServerStreamingCall(channel.newCall(EchoService.DOWNLOAD, CallOptions.DEFAULT),
        "3", second);
    assertThat(second.status().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(engine.stats(download).concurrency()).isEqualTo(1);

    held.onNext("second");
    held.onCompleted();
    assertThat(first.status().getCode()).isEqualTo(Status.Code.OK);
    assertThat(first.messages).containsExactly("first", "second");
    assertThat(engine.stats(download).concurrency()).isZero();
    Recorder third = new Recorder();
    ClientCalls.asyncServerStreamingCall(channel.newCall(EchoService.DOWNLOAD, CallOptions.DEFAULT),
        "3", third);
    assertThat(third.status().getCode()).isEqualTo(Status.Code.OK);
    assertThat(engine.stats(download).totalPass()).isEqualTo(2);
    assertThat(exits(download)).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void clientStreaming_halfCloseAndAnswer_isOneCall(Transport transport) throws Exception {
    Channel channel = guarded(transport);
    String upload = EchoService.UPLOAD.getFullMethodName();
    Recorder answer = new Recorder();
    StreamObserver<String> requests = ClientCalls.asyncClientStreamingCall(
        channel.newCall(EchoService.UPLOAD, CallOptions.DEFAULT), answer);

    requests.onNext("a");
    requests.onNext("b");
    requests.onNext("c");
    requests.onCompleted();

    assertThat(answer.status().getCode()).isEqualTo(Status.Code.OK);
    assertThat(answer.messages).containsExactly("3");
    assertThat(engine.stats(upload).totalPass()).isEqualTo(1);
    assertThat(engine.stats(upload).concurrency()).isZero();
    assertThat(exits(upload)).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void bidi_manyMessagesBothWays_isOneCall_andAnErrorStatusCountsOnce(Transport transport)
      throws Exception {
    Channel channel = guarded(transport);
    String chat = EchoService.CHAT.getFullMethodName();
    Recorder finished = new Recorder();
    StreamObserver<String> talk = ClientCalls.asyncBidiStreamingCall(
        channel.newCall(EchoService.CHAT, CallOptions.DEFAULT), finished);
    talk.onNext("a");
    talk.onNext("b");
    talk.onCompleted();
    Recorder failed = new Recorder();
    StreamObserver<String> failing = ClientCalls.asyncBidiStreamingCall(
        channel.newCall(EchoService.CHAT, CallOptions.DEFAULT), failed);
    failing.onNext("a");
    failing.onNext("fail");

    assertThat(finished.status().getCode()).isEqualTo(Status.Code.OK);
    assertThat(finished.messages).containsExactly("echo:a", "echo:b");
    assertThat(failed.status().getCode()).isEqualTo(Status.Code.INTERNAL);
    failing.onCompleted(); // after the server's close: changes nothing
    assertThat(engine.stats(chat).totalPass()).isEqualTo(2);
    assertThat(engine.stats(chat).totalException()).isEqualTo(1);
    assertThat(engine.stats(chat).concurrency()).isZero();
    assertThat(exits(chat)).isEqualTo(2);
  }

  enum CancelPoint { BEFORE_ANY_MESSAGE, AFTER_A_MESSAGE, AFTER_HALF_CLOSE }

  @ParameterizedTest
  @EnumSource(CancelPoint.class)
  void cancelByTheClient_atAnyPoint_endsTheCallOnce_asNoError(CancelPoint point)
      throws Exception {
    String chat = EchoService.CHAT.getFullMethodName();
    for (Transport transport : Transport.values()) {
      Channel channel = guarded(transport);
      ClientCall<String, String> call = channel.newCall(EchoService.CHAT, CallOptions.DEFAULT);
      call.start(new ClientCall.Listener<>() {}, new Metadata());
      call.request(10);
      if (point != CancelPoint.BEFORE_ANY_MESSAGE) {
        call.sendMessage("hold");
      }
      if (point == CancelPoint.AFTER_HALF_CLOSE) {
        call.halfClose();
      }
      ServerCallStreamObserver<String> held = heldByTheHandler();
      call.cancel("the client gave up", null);

      awaitNoPlaceHeld(chat);
      Await.until("the handler sees the cancel", PATIENCE, held::isCancelled);
    }
    assertThat(engine.stats(chat).totalPass()).isEqualTo(2);
    assertThat(engine.stats(chat).totalException()).isZero();
    assertThat(exits(chat)).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void deadlineExceeded_endsTheServersCallOnce(Transport transport) throws Exception {
    Channel channel = guarded(transport);
    String unary = EchoService.UNARY.getFullMethodName();
    Recorder late = new Recorder();
    ClientCalls.asyncUnaryCall(channel.newCall(EchoService.UNARY,
        CallOptions.DEFAULT.withDeadlineAfter(100, TimeUnit.MILLISECONDS)), "hang", late);

    assertThat(late.status().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    awaitNoPlaceHeld(unary);
    ServerCallStreamObserver<String> held = heldByTheHandler();
    Await.until("the handler sees the cancel", PATIENCE, held::isCancelled);
    assertThat(engine.stats(unary).totalPass()).isEqualTo(1);
    assertThat(exits(unary)).isEqualTo(1);
  }
}
