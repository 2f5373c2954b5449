package dev.guard.engine.internal.host;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pure functions over the contents of the Linux files that describe a process's control groups,
 * so that they can be tested on sample files.
 *
 * <ul>
 *   <li>{@code /proc/self/mountinfo}: where each hierarchy is mounted ({@code cgroup2} for v2,
 *       {@code cgroup} with the controller among its super options for v1) and which cgroup is
 *       the root of the mount (a container sees its own cgroup as the root).
 *   <li>{@code /proc/self/cgroup}: the process's cgroup in each hierarchy, {@code 0::/path} for v2,
 *       {@code n:cpu,cpuacct:/path} for v1.
 *   <li>v2 {@code cpu.max}: {@code "$QUOTA $PERIOD"} in microseconds, or {@code "max $PERIOD"}
 *       without a limit; {@code cpu.stat}: {@code usage_usec}, CPU time used by the cgroup.
 *   <li>v1 {@code cpu.cfs_quota_us} ({@code -1} without a limit) and {@code cpu.cfs_period_us};
 *       {@code cpuacct.usage}: CPU time used by the cgroup in nanoseconds.
 * </ul>
 *
 * <p>A quota of {@code q} per period {@code p} lets the cgroup use {@code q / p} CPUs; no limit is
 * {@link Double#POSITIVE_INFINITY}. Malformed contents throw {@link NumberFormatException} or
 * {@link IllegalArgumentException}; callers treat such a file as absent.
 */
final class Cgroups {

  private Cgroups() {}

  /** One line of {@code mountinfo}: the cgroup at the mount's root, where it is mounted, and how. */
  record Mount(String root, String mountPoint, String type, List<String> superOptions) {

    boolean isV2() {
      return type.equals("cgroup2");
    }

    boolean isV1With(String controller) {
      return type.equals("cgroup") && superOptions.contains(controller);
    }
  }

  /**
   * Parses {@code /proc/self/mountinfo}: {@code id parent major:minor root mountPoint options
   * [optional fields] - type source superOptions}. Lines that do not have this shape are skipped.
   */
  static List<Mount> parseMountInfo(String text) {
    List<Mount> mounts = new ArrayList<>();
    for (String line : text.split("\n")) {
      String[] fields = line.trim().split(" +");
      int separator = Arrays.asList(fields).indexOf("-");
      if (separator < 6 || fields.length < separator + 4) {
        continue;
      }
      mounts.add(new Mount(unescape(fields[3]), unescape(fields[4]), fields[separator + 1],
          List.of(fields[separator + 3].split(","))));
    }
    return List.copyOf(mounts);
  }

  /**
   * Parses {@code /proc/self/cgroup} into the process's cgroup path per controller; the v2
   * hierarchy (no controller list) is under the key {@code ""}.
   */
  static Map<String, String> parseProcCgroup(String text) {
    Map<String, String> paths = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] fields = line.trim().split(":", 3);
      if (fields.length < 3) {
        continue;
      }
      if (fields[1].isEmpty()) {
        paths.put("", fields[2]);
      } else {
        for (String controller : fields[1].split(",")) {
          paths.put(controller, fields[2]);
        }
      }
    }
    return Map.copyOf(paths);
  }

  /**
   * The directory of a cgroup under a mount: the mount point when the cgroup is the mount's root
   * (or lies outside it, as a container's view of a host path does), else the mount point plus the
   * cgroup's path below the root.
   */
  static String cgroupDirectory(Mount mount, String cgroupPath) {
    String root = mount.root();
    String below;
    if (root.equals("/")) {
      below = cgroupPath;
    } else if (cgroupPath.startsWith(root + "/")) {
      below = cgroupPath.substring(root.length());
    } else {
      below = "";
    }
    if (below.equals("/") || below.isEmpty()) {
      return mount.mountPoint();
    }
    return mount.mountPoint() + below;
  }

  /** CPUs a v2 {@code cpu.max} allows: {@code quota / period}, or infinity for {@code max}. */
  static double parseCpuMax(String text) {
    String[] fields = text.trim().split("\\s+");
    if (fields[0].equals("max")) {
      return Double.POSITIVE_INFINITY;
    }
    long period = fields.length > 1 ? Long.parseLong(fields[1]) : 100_000L;
    return quotaCpus(Long.parseLong(fields[0]), period);
  }

  /** CPUs a v1 CFS quota allows: {@code quota / period}, or infinity for a quota of -1. */
  static double parseCfsQuota(String quotaText, String periodText) {
    long quota = Long.parseLong(quotaText.trim());
    if (quota < 0) {
      return Double.POSITIVE_INFINITY;
    }
    return quotaCpus(quota, Long.parseLong(periodText.trim()));
  }

  private static double quotaCpus(long quota, long period) {
    if (quota <= 0 || period <= 0) {
      throw new IllegalArgumentException("a CPU quota must be positive, was " + quota + "/" + period);
    }
    return quota / (double) period;
  }

  /** CPU time used by a v2 cgroup in nanoseconds, from {@code usage_usec} in {@code cpu.stat}. */
  static long parseCpuStatUsageNanos(String text) {
    for (String line : text.split("\n")) {
      String[] fields = line.trim().split("\\s+");
      if (fields.length == 2 && fields[0].equals("usage_usec")) {
        return Math.multiplyExact(Long.parseLong(fields[1]), 1_000L);
      }
    }
    throw new IllegalArgumentException("cpu.stat has no usage_usec");
  }

  /** CPU time used by a v1 cgroup in nanoseconds, from {@code cpuacct.usage}. */
  static long parseCpuacctUsageNanos(String text) {
    return Long.parseLong(text.trim());
  }

  /** Decodes the octal escapes {@code mountinfo} uses for blanks ({@code \040}) and the like. */
  private static String unescape(String field) {
    if (field.indexOf('\\') < 0) {
      return field;
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && isOctal(field, i + 1)) {
        out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static boolean isOctal(String text, int from) {
    for (int i = from; i < from + 3; i++) {
      if (i >= text.length() || text.charAt(i) < '0' || text.charAt(i) > '7') {
        return false;
      }
    }
    return true;
  }
}
