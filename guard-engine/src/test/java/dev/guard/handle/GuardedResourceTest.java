package dev.guard.handle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class GuardedResourceTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  @Test
  void call_underLimit_runsBodyOnInput_andRecordsIt() {
    GuardedResource orders = engine.resource("orders");
    orders.declare(List.of(FlowRule.qps("orders", 1)));

    String upper = orders.call("a", String::toUpperCase);
    assertThat(upper).isEqualTo("A");
    assertThatThrownBy(() -> orders.call("b", String::toUpperCase))
        .isInstanceOf(RefusedException.Flow.class);
    assertThat(engine.stats("orders").passQps()).isEqualTo(1.0);
    assertThat(engine.stats("orders").refusedQps()).isEqualTo(1.0);
    assertThat(engine.stats("orders").concurrency()).isZero();
  }

  @Test
  void callChecked_bodyThrowsCheckedException_passesItThroughAndCountsIt() {
    GuardedResource files = engine.resource("files");
    IOException failure = new IOException("disk");

    assertThatThrownBy(() -> files.callChecked(failure, e -> {
      throw e;
    })).isSameAs(failure);
    assertThat(engine.stats("files").exceptionQps()).isEqualTo(1.0);
    assertThat(engine.stats("files").concurrency()).isZero();
  }

  @Test
  void callOrElse_refused_returnsFallbackWithoutRunningBody() {
    GuardedResource closed = engine.resource("closed");
    closed.declare(List.of(FlowRule.qps("closed", 0)));

    String result = closed.callOrElse(null, "x", input -> {
      throw new AssertionError("must not run");
    }, refused -> "fallback:" + refused.resource());

    assertThat(result).isEqualTo("fallback:closed");
  }

  @Test
  void settings_returnNewHandles_andInboundCallsCountInInboundStats() {
    GuardedResource out = engine.resource("api");
    GuardedResource in = out.entryType(EntryType.IN);

    out.call("x", String::length);
    in.call("x", String::length);

    assertThat(engine.inboundStats().passQps()).isEqualTo(1.0);
    assertThat(engine.stats("api").passQps()).isEqualTo(2.0);
  }

  @Test
  void enterAsync_exitedOnAnotherThread_balancesConcurrency() throws Exception {
    Entry entry = engine.resource("async").enterAsync();
    Thread closer = new Thread(entry::close);
    closer.start();
    closer.join(5_000);

    assertThat(engine.stats("async").concurrency()).isZero();
    assertThat(engine.stats("async").successQps()).isEqualTo(1.0);
  }

  @Test
  void declare_sameRulesAgain_isNoOp() {
    List<String> changes = new java.util.ArrayList<>();
    GuardEngine listened = GuardEngine.builder().clock(clock)
        .listener(new EngineListener() {
          @Override
          public void onRulesReplaced(String resource, List<dev.guard.api.rule.Rule> before,
              List<dev.guard.api.rule.Rule> after) {
            changes.add(resource);
          }
        }).build();
    GuardedResource r = listened.resource("r");

    r.declare(List.of(FlowRule.qps("r", 5)));
    r.declare(List.of(FlowRule.qps("r", 5)));
    r.declare(List.of(FlowRule.qps("r", 6)));

    assertThat(changes).containsExactly("r", "r");
    assertThat(listened.rules("r")).containsExactly(FlowRule.qps("r", 6));
  }

  @Test
  void recordExceptionsIf_false_passesTheExceptionThroughAsASuccess() {
    GuardedResource lenient = engine.resource("lenient")
        .recordExceptionsIf(e -> !(e instanceof IllegalArgumentException));
    IllegalArgumentException invalid = new IllegalArgumentException("bad input");

    assertThatThrownBy(() -> lenient.call(invalid, e -> {
      throw e;
    })).isSameAs(invalid);
    assertThatThrownBy(() -> lenient.call(new IllegalStateException("down"), e -> {
      throw e;
    })).isInstanceOf(IllegalStateException.class);

    assertThat(engine.stats("lenient").successQps()).isEqualTo(2.0);
    assertThat(engine.stats("lenient").exceptionQps()).isEqualTo(1.0);
  }

  @Test
  void permits_negative_isRejectedNamingTheField() {
    assertThatThrownBy(() -> engine.resource("r").permits(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("permits must be >= 0, was -1");
  }
}
