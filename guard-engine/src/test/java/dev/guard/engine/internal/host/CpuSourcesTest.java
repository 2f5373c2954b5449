package dev.guard.engine.internal.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Detection against sample file trees under {@code src/test/resources/cgroup}. */
class CpuSourcesTest {

  private static final FixedProbe OS = new FixedProbe(1.0, 5_000_000L, 0.25, 8);

  private static Path sample(String name) {
    try {
      return Path.of(CpuSourcesTest.class.getResource("/cgroup/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void v2_readsCpuStatAndCpuMax() {
    CpuSource source = CpuSources.detect(sample("v2"), OS);

    assertThat(source.description())
        .isEqualTo("cgroup v2 (/sys/fs/cgroup/cpu.stat, CPU quota 1.5 CPUs)");
    assertThat(source.cpuNanos()).isEqualTo(2_500_000_000L);
    assertThat(source.quotaCpus()).isEqualTo(1.5);
    assertThat(source.reportedUsage()).isNegative();
  }

  @Test
  void v2_withMax_hasNoQuota() {
    CpuSource source = CpuSources.detect(sample("v2-max"), OS);

    assertThat(source.description()).isEqualTo("cgroup v2 (/sys/fs/cgroup/cpu.stat, no CPU quota)");
    assertThat(source.quotaCpus()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(source.cpuNanos()).isEqualTo(42_000L);
  }

  @Test
  void v2_nested_readsItsOwnCgroup_andTheSmallestQuotaOfItsAncestors() {
    CpuSource source = CpuSources.detect(sample("v2-nested"), OS);

    assertThat(source.cpuNanos()).isEqualTo(7_000_000L);
    assertThat(source.quotaCpus()).isEqualTo(2.0);
  }

  @Test
  void v1_inAContainer_readsCpuacctUsageAndCfsQuota() {
    CpuSource source = CpuSources.detect(sample("v1"), OS);

    assertThat(source.description()).isEqualTo(
        "cgroup v1 (/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage, CPU quota 0.5 CPUs)");
    assertThat(source.cpuNanos()).isEqualTo(123_456_789L);
    assertThat(source.quotaCpus()).isEqualTo(0.5);
  }

  @Test
  void hybrid_prefersV1_whereTheCpuControllersLive() {
    CpuSource source = CpuSources.detect(sample("hybrid"), OS);

    assertThat(source.description())
        .isEqualTo("cgroup v1 (/sys/fs/cgroup/cpuacct/cpuacct.usage, no CPU quota)");
    assertThat(source.cpuNanos()).isEqualTo(690_601_658_780L);
  }

  @Test
  void missingHierarchy_fallsBackToTheOperatingSystem() {
    CpuSource source = CpuSources.detect(sample("missing"), OS);

    assertThat(source.description()).startsWith("operating system");
    assertThat(source.cpuNanos()).isEqualTo(5_000_000L);
    assertThat(source.quotaCpus()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(source.reportedUsage()).isEqualTo(0.25);
  }

  @Test
  void noProcFiles_fallBackToTheOperatingSystem(@TempDir Path empty) {
    assertThat(CpuSources.detect(empty, OS).description()).startsWith("operating system");
  }

  @Test
  void nothingAvailable_isNone(@TempDir Path empty) {
    CpuSource source = CpuSources.detect(empty, FixedProbe.silent());

    assertThat(source).isSameAs(CpuSources.NONE);
    assertThat(source.cpuNanos()).isNegative();
  }
}
