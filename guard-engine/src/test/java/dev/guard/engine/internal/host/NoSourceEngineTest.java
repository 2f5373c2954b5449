package dev.guard.engine.internal.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.EntryType;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.GuardEngine;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where no cgroup files exist and the JVM reports nothing, CPU and load thresholds refuse nothing. */
class NoSourceEngineTest {

  @Test
  void engine_withoutAnySource_admitsInboundCalls(@TempDir Path emptyRoot) throws Exception {
    HostSystemStatus status = new HostSystemStatus(emptyRoot, FixedProbe.silent(), new SteppedTime(),
        HostSystemStatus.INTERVAL_NANOS);
    GuardEngine engine =
        GuardEngine.builder().clock(new SteppedTime()).systemStatus(status).build();
    engine.apply(engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxCpuUsage(0).withMaxSystemLoad(0).withMaxConcurrency(100))));

    for (int i = 0; i < 50; i++) {
      engine.resource("r").entryType(EntryType.IN).enter().close();
    }

    assertThat(engine.systemStatus().source()).startsWith("none");
    assertThat(status.cpuUsage()).isNegative();
    assertThat(status.systemLoad()).isNegative();
    assertThat(engine.inboundStats().passQps()).isEqualTo(50.0);
    Thread sampler = status.sampler();
    if (sampler != null) {
      sampler.interrupt();
      sampler.join(10_000);
    }
  }
}
