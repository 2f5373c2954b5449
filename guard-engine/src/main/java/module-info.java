import org.jspecify.annotations.NullMarked;

/** The guard engine: statistics, slot chain, controllers and rule registry. */
@NullMarked
module dev.guard.engine {
  requires transitive dev.guard.api;
  requires jdk.management; // OperatingSystemMXBean's process CPU time, when no cgroup is readable

  exports dev.guard.engine;
}
