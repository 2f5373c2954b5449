package dev.guard.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.engine.GuardEngine;
import dev.guard.testing.Together;
import dev.guard.testkit.ManualClock;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every ending of a call, on either side, racing every other on threads released together:
 * whatever comes first ends the call, once. Afterwards no place is held, every admitted call
 * exited once, and no call recorded more than one error.
 */
class Issue38GrpcEndingRaceProperties {

  private static final int CALLS = 4;

  enum ServerEnding { CLOSE_OK, CLOSE_UNAVAILABLE, CANCEL, COMPLETE, HANDLER_THROWS }

  enum ClientEnding { CLOSE_OK, CLOSE_UNAVAILABLE, CANCEL }

  @Provide
  Arbitrary<List<ServerEnding>> serverEndings() {
    return Arbitraries.of(ServerEnding.class).list().uniqueElements().ofMinSize(2).ofMaxSize(5);
  }

  @Provide
  Arbitrary<List<ClientEnding>> clientEndings() {
    return Arbitraries.of(ClientEnding.class).list().uniqueElements().ofMinSize(2).ofMaxSize(3);
  }

  @Property(tries = 40)
  void serverCall_endsOnce_whateverEndsItFirst(
      @ForAll("serverEndings") List<ServerEnding> endings) throws Exception {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    GuardServerInterceptor interceptor = GuardServerInterceptor.of(engine);
    String chat = EchoService.CHAT.getFullMethodName();
    List<Runnable> racers = new ArrayList<>();
    for (int i = 0; i < CALLS; i++) {
      FakeCalls.Handler handler = new FakeCalls.Handler();
      ServerCall.Listener<String> listener = interceptor.interceptCall(new FakeCalls.Server(),
          new Metadata(), handler);
      ServerCall<String, String> call = handler.call;
      for (ServerEnding ending : endings) {
        racers.add(() -> end(ending, call, listener));
      }
    }
    assertThat(engine.stats(chat).concurrency()).isEqualTo(CALLS);

    Together.run(racers.size(), thread -> racers.get(thread).run());

    assertThat(engine.stats(chat).concurrency()).as("places held").isZero();
    clock.advance(Duration.ofSeconds(2));
    assertThat(engine.metricsTotals(chat).success()).as("exits").isEqualTo(CALLS);
    assertThat(engine.metricsTotals(chat).exception()).isLessThanOrEqualTo(CALLS);
  }

  private static void end(ServerEnding ending, ServerCall<String, String> call,
      ServerCall.Listener<String> listener) {
    switch (ending) {
      case CLOSE_OK -> call.close(Status.OK, new Metadata());
      case CLOSE_UNAVAILABLE -> call.close(Status.UNAVAILABLE, new Metadata());
      case CANCEL -> listener.onCancel();
      case COMPLETE -> listener.onComplete();
      case HANDLER_THROWS -> {
        try {
          listener.onHalfClose();
        } catch (IllegalStateException expected) {
          // the handler's exception passes through to the server, which closes the call
        }
      }
    }
  }

  @Property(tries = 40)
  void clientCall_endsOnce_whateverEndsItFirst(
      @ForAll("clientEndings") List<ClientEnding> endings) throws Exception {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    GuardClientInterceptor interceptor = GuardClientInterceptor.of(engine);
    String chat = EchoService.CHAT.getFullMethodName();
    List<Runnable> racers = new ArrayList<>();
    for (int i = 0; i < CALLS; i++) {
      FakeCalls.Client sent = new FakeCalls.Client();
      ClientCall<String, String> call = interceptor.interceptCall(EchoService.CHAT,
          CallOptions.DEFAULT, FakeCalls.channel(sent));
      call.start(new ClientCall.Listener<>() {}, new Metadata());
      ClientCall.Listener<String> listener = sent.listener;
      for (ClientEnding ending : endings) {
        racers.add(() -> {
          switch (ending) {
            case CLOSE_OK -> listener.onClose(Status.OK, new Metadata());
            case CLOSE_UNAVAILABLE -> listener.onClose(Status.UNAVAILABLE, new Metadata());
            case CANCEL -> call.cancel("the caller gave up", null);
          }
        });
      }
    }
    assertThat(engine.stats(chat).concurrency()).isEqualTo(CALLS);

    Together.run(racers.size(), thread -> racers.get(thread).run());

    assertThat(engine.stats(chat).concurrency()).as("places held").isZero();
    clock.advance(Duration.ofSeconds(2));
    assertThat(engine.metricsTotals(chat).success()).as("exits").isEqualTo(CALLS);
    assertThat(engine.metricsTotals(chat).exception()).isLessThanOrEqualTo(CALLS);
  }
}
