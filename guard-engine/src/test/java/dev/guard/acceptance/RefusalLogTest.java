package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.RefusedException;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.ContextScope;
import dev.guard.engine.GuardEngine;
import dev.guard.testsupport.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ResourceBundle;
import org.junit.jupiter.api.Test;

/**
 * The refusal log (docs/BEHAVIOUR.md, "refusal log"): refusals per resource and second, by kind and by
 * origin, to listeners and to a bounded number of log lines.
 */
class RefusalLogTest {

  private final List<EngineListener.Refusals> entries = new ArrayList<>();
  private final List<String> lines = new ArrayList<>();

  private final System.Logger logger = new System.Logger() {
    @Override
    public String getName() {
      return "test";
    }

    @Override
    public boolean isLoggable(Level level) {
      return true;
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
      lines.add(message);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
      lines.add(format);
    }
  };

  private Scenario scenario(int maxLines) {
    return new Scenario(GuardEngine.builder()
        .listener(new EngineListener() {
          @Override
          public void onRefusals(EngineListener.Refusals entry) {
            entries.add(entry);
          }
        })
        .refusalLog(logger, maxLines));
  }

  @Test
  void refusals_areReportedPerResourceAndSecond_byKindAndOrigin() {
    Scenario s = scenario(10);
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 2), OriginRule.deny("R", "bot"))));
    s.at(1000);
    try (ContextScope ignored = s.engine.resource("web").context("web", "app").openContext()) {
      assertThat(s.calls("R", 5)).isEqualTo("PPBBB");
    }
    try (ContextScope ignored = s.engine.resource("web").context("web", "bot").openContext()) {
      assertThat(s.calls("R", 2)).isEqualTo("BB");
    }
    s.at(1500);
    s.calls("R", 1); // the second is not over: nothing yet
    s.engine.recordMetrics();
    assertThat(entries).isEmpty();
    s.at(2000);

    s.engine.recordMetrics();
    s.engine.recordMetrics();

    assertThat(entries).containsExactly(new EngineListener.Refusals("R", 61_000, 6,
        Map.of(RefusedException.Kind.FLOW, 4L, RefusedException.Kind.ORIGIN, 2L), Map.of("app", 3L, "bot", 2L)));
    assertThat(lines).containsExactly(
        "guard refusals: resource=R second=61 refused=6 flow=4 origin=2 origins={app=3, bot=2}");
  }

  @Test
  void logLines_areBoundedPerRecording_listenersHearEverything() {
    Scenario s = scenario(3);
    for (int r = 0; r < 10; r++) {
      s.engine.apply(s.engine.ruleSet().withRulesOf("r" + r, List.of(FlowRule.qps("r" + r, 0))));
      s.calls("r" + r, 1);
    }
    s.at(1000);

    s.engine.recordMetrics();

    assertThat(entries).hasSize(10);
    assertThat(lines).hasSize(4);
    assertThat(lines.get(3)).isEqualTo("guard refusals: 7 more resource-seconds with refusals not"
        + " logged (at most 3 lines a second)");
  }
}
