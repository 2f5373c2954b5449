package dev.guard.engine.internal.host;

import dev.guard.engine.internal.host.Cgroups.Mount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * Finds the CPU source of the running process, first match wins:
 *
 * <ol>
 *   <li><b>cgroup v1</b>, when a v1 hierarchy with the {@code cpuacct} controller is mounted and the
 *       process's {@code cpuacct.usage} is readable; the quota is the smallest {@code
 *       cpu.cfs_quota_us / cpu.cfs_period_us} of the process's {@code cpu} cgroup and its
 *       ancestors up to the mount. (On a host with both hierarchies the CPU controllers live in
 *       v1, so v1 is asked first.)
 *   <li><b>cgroup v2</b>, when a {@code cgroup2} hierarchy is mounted and the process's {@code
 *       cpu.stat} has {@code usage_usec}; the quota is the smallest {@code cpu.max} of its cgroup
 *       and its ancestors up to the mount.
 *   <li><b>operating system</b>: the process CPU time and the system CPU load of {@code
 *       OperatingSystemMXBean}, when the JVM reports them.
 *   <li><b>none</b>: CPU usage stays unknown.
 * </ol>
 *
 * <p>Files are read below a root directory ({@code /} in production, a folder of sample files in
 * tests).
 */
final class CpuSources {

  private CpuSources() {}

  static CpuSource detect(Path root, OsProbe os) {
    String mountInfo = read(root.resolve("proc/self/mountinfo"));
    String cgroup = read(root.resolve("proc/self/cgroup"));
    if (mountInfo != null && cgroup != null) {
      List<Mount> mounts = parseOrEmpty(mountInfo);
      Map<String, String> paths = Cgroups.parseProcCgroup(cgroup);
      CpuSource v1 = cgroupV1(root, mounts, paths);
      if (v1 != null) {
        return v1;
      }
      CpuSource v2 = cgroupV2(root, mounts, paths);
      if (v2 != null) {
        return v2;
      }
    }
    return os.processCpuNanos() >= 0 ? new OsSource(os) : NONE;
  }

  static final CpuSource NONE = new CpuSource() {
    @Override
    public String description() {
      return "none (no cgroup CPU accounting, and the JVM reports no process CPU time)";
    }

    @Override
    public long cpuNanos() {
      return -1;
    }

    @Override
    public double quotaCpus() {
      return Double.POSITIVE_INFINITY;
    }
  };

  private static @Nullable CpuSource cgroupV1(Path root, List<Mount> mounts, Map<String, String> paths) {
    Mount acct = find(mounts, mount -> mount.isV1With("cpuacct"));
    String acctPath = paths.get("cpuacct");
    if (acct == null || acctPath == null) {
      return null;
    }
    Path usage = existing(root, acct, acctPath, "cpuacct.usage");
    if (usage == null || readUsage(usage, Cgroups::parseCpuacctUsageNanos) < 0) {
      return null;
    }
    Mount cpu = find(mounts, mount -> mount.isV1With("cpu"));
    String cpuPath = paths.get("cpu");
    List<Path> quotaDirs = cpu == null || cpuPath == null ? List.of() : upward(root, cpu, cpuPath);
    return new CgroupSource("cgroup v1", usage, root, Cgroups::parseCpuacctUsageNanos, quotaDirs,
        dir -> Cgroups.parseCfsQuota(readOrThrow(dir.resolve("cpu.cfs_quota_us")),
            readOrThrow(dir.resolve("cpu.cfs_period_us"))));
  }

  private static @Nullable CpuSource cgroupV2(Path root, List<Mount> mounts, Map<String, String> paths) {
    Mount unified = find(mounts, Mount::isV2);
    String path = paths.get("");
    if (unified == null || path == null) {
      return null;
    }
    Path stat = existing(root, unified, path, "cpu.stat");
    if (stat == null || readUsage(stat, Cgroups::parseCpuStatUsageNanos) < 0) {
      return null;
    }
    return new CgroupSource("cgroup v2", stat, root, Cgroups::parseCpuStatUsageNanos,
        upward(root, unified, path), dir -> Cgroups.parseCpuMax(readOrThrow(dir.resolve("cpu.max"))));
  }

  /** Reads a quota of one cgroup directory; throws when the files are absent or malformed. */
  @FunctionalInterface
  interface QuotaReader {
    double cpus(Path dir) throws IOException;
  }

  /** A cgroup's CPU time and the smallest quota of it and its ancestors. */
  private static final class CgroupSource implements CpuSource {
    private final String kind;
    private final Path usage;
    private final Path root;
    private final ToLongFunction<String> parser;
    private final List<Path> quotaDirs;
    private final QuotaReader quota;

    CgroupSource(String kind, Path usage, Path root, ToLongFunction<String> parser,
        List<Path> quotaDirs, QuotaReader quota) {
      this.kind = kind;
      this.usage = usage;
      this.root = root;
      this.parser = parser;
      this.quotaDirs = List.copyOf(quotaDirs);
      this.quota = quota;
    }

    @Override
    public String description() {
      double cpus = quotaCpus();
      return kind + " (" + "/" + root.relativize(usage) + ", "
          + (Double.isInfinite(cpus) ? "no CPU quota" : "CPU quota " + cpus + " CPUs") + ")";
    }

    @Override
    public long cpuNanos() {
      return readUsage(usage, parser);
    }

    @Override
    public double quotaCpus() {
      double smallest = Double.POSITIVE_INFINITY;
      for (Path dir : quotaDirs) {
        try {
          smallest = Math.min(smallest, quota.cpus(dir));
        } catch (IOException | RuntimeException absentOrMalformed) {
          // this level sets no quota we can read
        }
      }
      return smallest;
    }
  }

  /** The OS's process CPU time, and its system CPU load as a reported usage. */
  private static final class OsSource implements CpuSource {
    private final OsProbe os;

    OsSource(OsProbe os) {
      this.os = os;
    }

    @Override
    public String description() {
      return "operating system (OperatingSystemMXBean: process CPU time, system CPU load)";
    }

    @Override
    public long cpuNanos() {
      return os.processCpuNanos();
    }

    @Override
    public double quotaCpus() {
      return Double.POSITIVE_INFINITY;
    }

    @Override
    public double reportedUsage() {
      return os.systemCpuLoad();
    }
  }

  private static List<Mount> parseOrEmpty(String mountInfo) {
    try {
      return Cgroups.parseMountInfo(mountInfo);
    } catch (RuntimeException malformed) {
      return List.of();
    }
  }

  private static @Nullable Mount find(List<Mount> mounts, Predicate<Mount> wanted) {
    for (Mount mount : mounts) {
      if (wanted.test(mount)) {
        return mount;
      }
    }
    return null;
  }

  /** A file of the process's cgroup, else the same file at the mount point, else null. */
  private static @Nullable Path existing(Path root, Mount mount, String cgroupPath, String file) {
    Path own = under(root, Cgroups.cgroupDirectory(mount, cgroupPath)).resolve(file);
    if (Files.isReadable(own)) {
      return own;
    }
    Path top = under(root, mount.mountPoint()).resolve(file);
    return Files.isReadable(top) ? top : null;
  }

  /** The process's cgroup directory and its ancestors up to the mount point. */
  private static List<Path> upward(Path root, Mount mount, String cgroupPath) {
    Path top = under(root, mount.mountPoint());
    Path dir = under(root, Cgroups.cgroupDirectory(mount, cgroupPath));
    if (!Files.isDirectory(dir) || !dir.startsWith(top)) {
      dir = top;
    }
    List<Path> dirs = new ArrayList<>();
    for (Path at = dir; at != null && at.startsWith(top); at = at.getParent()) {
      dirs.add(at);
    }
    return dirs;
  }

  private static Path under(Path root, String absolute) {
    return root.resolve(absolute.startsWith("/") ? absolute.substring(1) : absolute);
  }

  private static long readUsage(Path file, ToLongFunction<String> parser) {
    String text = read(file);
    if (text == null) {
      return -1;
    }
    try {
      return parser.applyAsLong(text);
    } catch (RuntimeException malformed) {
      return -1;
    }
  }

  private static @Nullable String read(Path file) {
    try {
      return readOrThrow(file);
    } catch (IOException | SecurityException unreadable) {
      return null;
    }
  }

  private static String readOrThrow(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
