package dev.guard.engine;

import dev.guard.spi.EngineListener;
import dev.guard.spi.TokenService;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.spi.TimeSource;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.internal.MetricsRecorder;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** docs/BEHAVIOUR.md, "Closing an engine". */
class GuardEngineCloseTest {

  /** A long-lived token service that counts the availability listeners registered with it. */
  private static final class ListenedService implements TokenService {
    final Set<AvailabilityListener> listeners = ConcurrentHashMap.newKeySet();
    @Override
    public TokenService.Result requestToken(FlowRule rule, int permits, boolean prioritized) {
      return TokenService.Result.OK;
    }

    @Override
    public void addAvailabilityListener(AvailabilityListener listener) {
      listeners.add(listener);
    }

    @Override
    public void removeAvailabilityListener(AvailabilityListener listener) {
      listeners.remove(listener);
    }
  }

  private static GuardEngine engine(TokenService tokens) {
    return GuardEngine.builder().tokenService(tokens).listener(new EngineListener() {}).build();
  }

  @Test
  void close_ofAThousandEngines_leavesNoListenerAndNoRecordedEngineBehind() {
    ListenedService service = new ListenedService();
    int watchedBefore = MetricsRecorder.watchedEngines();
    for (int i = 0; i < 1000; i++) {
      GuardEngine engine = engine(service);
      assertThat(service.listeners).hasSize(1);
      engine.close();
      assertThat(service.listeners).isEmpty();
    }
    assertThat(MetricsRecorder.watchedEngines()).isLessThanOrEqualTo(watchedBefore);
    assertThat(recorderThreads()).isLessThanOrEqualTo(1);
  }

  @Test
  void close_removesOnlyTheEnginesOwnListener() {
    ListenedService service = new ListenedService();
    GuardEngine staying = engine(service);
    GuardEngine leaving = engine(service);
    leaving.close();
    assertThat(service.listeners).hasSize(1);
    staying.close();
    assertThat(service.listeners).isEmpty();
  }

  @Test
  void close_isIdempotent_andCallsAfterItPassUnchecked() {
    GuardEngine engine = GuardEngine.builder().build();
    engine.apply(engine.ruleSet().withRulesOf("orders", List.of(FlowRule.qps("orders", 0))));
    assertThatThrownBy(() -> engine.resource("orders").enter()).isInstanceOf(RefusedException.class);
    engine.close();
    engine.close();
    double passedBefore = engine.stats("orders").passQps();
    engine.resource("orders").enter().close();
    assertThat(engine.stats("orders").concurrency()).isZero();
    assertThat(engine.stats("orders").passQps()).as("nothing recorded").isEqualTo(passedBefore);
  }

  @Test
  void close_ofTheSharedEngine_isRefused() {
    assertThatThrownBy(() -> GuardEngine.shared().close())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("shared engine");
  }

  private static long recorderThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("guard-metrics-recorder") && t.isAlive())
        .count();
  }
}
