package dev.guard.engine.internal.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.engine.internal.host.Cgroups.Mount;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CgroupsTest {

  @Test
  void parseMountInfo_readsRootMountPointTypeAndSuperOptions_pastOptionalFields() {
    List<Mount> mounts = Cgroups.parseMountInfo(
        "35 24 0:30 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw,nsdelegate\n"
            + "41 30 0:36 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro master:17 - cgroup cgroup rw,cpu,cpuacct\n"
            + "garbage line\n");

    assertThat(mounts).containsExactly(
        new Mount("/", "/sys/fs/cgroup", "cgroup2", List.of("rw", "nsdelegate")),
        new Mount("/docker/abc", "/sys/fs/cgroup/cpu,cpuacct", "cgroup",
            List.of("rw", "cpu", "cpuacct")));
    assertThat(mounts.get(0).isV2()).isTrue();
    assertThat(mounts.get(1).isV1With("cpuacct")).isTrue();
    assertThat(mounts.get(1).isV1With("memory")).isFalse();
  }

  @Test
  void parseMountInfo_decodesEscapedBlanks() {
    List<Mount> mounts = Cgroups.parseMountInfo(
        "41 30 0:36 / /mnt/my\\040cgroups rw - cgroup cgroup rw,cpuacct");

    assertThat(mounts.get(0).mountPoint()).isEqualTo("/mnt/my cgroups");
  }

  @Test
  void parseProcCgroup_mapsEachControllerAndTheUnifiedHierarchy() {
    Map<String, String> paths = Cgroups.parseProcCgroup(
        "4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n0::/user.slice\n");

    assertThat(paths).containsEntry("cpu", "/docker/abc").containsEntry("cpuacct", "/docker/abc")
        .containsEntry("", "/user.slice");
  }

  @Test
  void cgroupDirectory_followsTheMountRoot() {
    Mount hostView = new Mount("/", "/sys/fs/cgroup", "cgroup2", List.of());
    Mount containerView = new Mount("/docker/abc", "/sys/fs/cgroup/cpu", "cgroup", List.of());

    assertThat(Cgroups.cgroupDirectory(hostView, "/")).isEqualTo("/sys/fs/cgroup");
    assertThat(Cgroups.cgroupDirectory(hostView, "/a/b")).isEqualTo("/sys/fs/cgroup/a/b");
    assertThat(Cgroups.cgroupDirectory(containerView, "/docker/abc")).isEqualTo("/sys/fs/cgroup/cpu");
    assertThat(Cgroups.cgroupDirectory(containerView, "/docker/abc/x"))
        .isEqualTo("/sys/fs/cgroup/cpu/x");
    assertThat(Cgroups.cgroupDirectory(containerView, "/elsewhere")).isEqualTo("/sys/fs/cgroup/cpu");
  }

  @Test
  void parseCpuMax_quotaOverPeriod_orInfinityForMax() {
    assertThat(Cgroups.parseCpuMax("150000 100000\n")).isEqualTo(1.5);
    assertThat(Cgroups.parseCpuMax("max 100000\n")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThatThrownBy(() -> Cgroups.parseCpuMax("0 100000"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Cgroups.parseCpuMax("lots 100000"))
        .isInstanceOf(NumberFormatException.class);
  }

  @Test
  void parseCfsQuota_quotaOverPeriod_orInfinityForMinusOne() {
    assertThat(Cgroups.parseCfsQuota("50000\n", "100000\n")).isEqualTo(0.5);
    assertThat(Cgroups.parseCfsQuota("-1\n", "100000\n")).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void parseUsage_v2MicrosAndV1Nanos_giveNanos() {
    assertThat(Cgroups.parseCpuStatUsageNanos("usage_usec 2500000\nuser_usec 2000000\n"))
        .isEqualTo(2_500_000_000L);
    assertThat(Cgroups.parseCpuacctUsageNanos("123456789\n")).isEqualTo(123_456_789L);
    assertThatThrownBy(() -> Cgroups.parseCpuStatUsageNanos("user_usec 1\n"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
