package dev.guard.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.testing.Together;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 37: one outbound admission. {@link OutboundGate} names a call's resource as {@link
 * HttpOutbound} says, refuses before anything is sent, and its {@link OutboundCall} finishes
 * exactly once whichever of response, failure and cancellation comes first.
 */
class Issue37OutboundGateTest {

  private static final String HOST = "https://api.example.com";
  private static final URI ORDER = URI.create(HOST + "/orders/42?x=1");

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();
  private final OutboundGate gate = OutboundGate.of(HttpOutbound.of(engine));

  private NodeStats host() {
    return engine.stats(HOST);
  }

  @Test
  void enter_namesTheResourceAfterTheHost_byDefault() {
    OutboundCall call = gate.enter("GET", ORDER);

    assertThat(call.resource()).isEqualTo(HOST);
    assertThat(host().concurrency()).isEqualTo(1);
    assertThat(engine.inboundStats().totalPass()).isZero();
    assertThat(gate.enter("GET", URI.create("http://127.0.0.1:8080/a")).resource())
        .isEqualTo("http://127.0.0.1:8080");
  }

  @Test
  void enter_perPath_namesTheResourceAfterMethodHostAndPathTemplate() {
    OutboundGate perPath = OutboundGate.of(HttpOutbound.of(engine)
        .perPath(HttpInbound.defaultPathCleaner()));

    assertThat(perPath.enter("POST", ORDER).resource()).isEqualTo("POST " + HOST + "/orders/{id}");
    assertThat(perPath.enter("GET", URI.create(HOST)).resource()).isEqualTo("GET " + HOST + "/");
  }

  @Test
  void enter_refused_throwsTheRefusal_andHoldsNoPlace() {
    engine.resource(HOST).declare(List.of(FlowRule.qps(HOST, 1)));
    gate.enter("GET", ORDER).finish(200);

    assertThatThrownBy(() -> gate.enter("GET", ORDER)).isInstanceOf(RefusedException.Flow.class);
    assertThat(host().totalRefused()).isEqualTo(1);
    assertThat(host().concurrency()).isZero();
  }

  @Test
  void finish_serverErrors_openTheBreaker_whichThenRefusesBeforeSending() {
    engine.resource(HOST).declare(List.of(CircuitBreakerRule.errorCount(HOST, 1).withMinCalls(2)
        .withOpenFor(Duration.ofSeconds(5))));
    gate.enter("GET", ORDER).finish(503);
    gate.enter("GET", ORDER).finish(500);

    assertThatThrownBy(() -> gate.enter("GET", ORDER))
        .isInstanceOf(RefusedException.Breaker.class);
    assertThat(host().totalException()).isEqualTo(2);
  }

  @Test
  void finish_isOnce_whicheverWayComesFirst() {
    OutboundCall call = gate.enter("GET", ORDER);

    assertThat(call.finish(200)).isTrue();
    assertThat(call.finish(500)).isFalse();
    assertThat(call.fail(new IOException("late"))).isFalse();
    assertThat(call.cancel()).isFalse();
    assertThat(call.finished()).isTrue();
    assertThat(host().concurrency()).isZero();
    assertThat(host().totalException()).isZero();
    assertThat(host().successQps()).isEqualTo(1);
  }

  @Test
  void fail_recordsTheUnwrappedCause_butNotACancellationOrInterrupt() {
    IOException reset = new IOException("connection reset");
    gate.enter("GET", ORDER).fail(new CompletionException(reset));
    gate.enter("GET", ORDER).fail(new CancellationException());
    gate.enter("GET", ORDER).fail(new InterruptedException());
    gate.enter("GET", ORDER).cancel();

    assertThat(host().totalException()).isEqualTo(1);
    assertThat(host().concurrency()).isZero();
    assertThat(host().successQps()).isEqualTo(4);
  }

  @Test
  void responseRacingCancellation_givesEachPlaceBackExactlyOnce() throws Exception {
    int tries = 2_000;
    OutboundCall[] calls = new OutboundCall[tries];
    for (int i = 0; i < tries; i++) {
      calls[i] = gate.enter("GET", ORDER);
    }
    AtomicInteger responses = new AtomicInteger();
    AtomicInteger cancels = new AtomicInteger();

    Together.run(2, thread -> {
      for (OutboundCall call : calls) {
        if (thread == 0 ? call.finish(500) : call.cancel()) {
          (thread == 0 ? responses : cancels).incrementAndGet();
        }
      }
    });

    assertThat(responses.get() + cancels.get()).isEqualTo(tries);
    assertThat(host().concurrency()).isZero();
    assertThat(host().totalPass()).isEqualTo(tries);
    assertThat(host().successQps()).as("exits").isEqualTo(tries);
    assertThat(host().totalException()).isEqualTo(responses.get());
  }
}
