package dev.guard.architecture;

import dev.guard.api.EntryType;
import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.dashboard.GuardDashboard;
import dev.guard.engine.GuardEngine;
import dev.guard.examples.Demo;
import dev.guard.http.GuardHttpServerFilter;
import dev.guard.micrometer.GuardMetrics;
import dev.guard.reactor.GuardedPublishers;
import dev.guard.redis.RedisTokenService;
import dev.guard.rules.RuleFormat;
import dev.guard.testkit.ManualClock;
import dev.guard.testkit.traffic.TrafficSimulator;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Only the system time source reads the JVM's clock or waits on it: everything else goes through a
 * {@code TimeSource}, which is what makes every time-dependent behaviour testable on a manual clock
 * (docs/BEHAVIOUR.md, "Time"). Reads the compiled classes of every module (benchmarks aside), as
 * they ship, and reports each reference to one of the {@link ClockBans} — a clock read, a sleep, a
 * park or a timed wait of any kind, a scheduler — outside the few classes allowed one, each with
 * its reason. This module depends on every other, so all of them are on its class path.
 */
class ClockDisciplineTest {

  /** One class of each module: the scan reads everything where that class was loaded from. */
  private static final List<Class<?>> MODULES = List.of(EntryType.class, GuardEngine.class,
      Guard.class, ManualClock.class, TrafficSimulator.class, RuleFormat.class,
      RedisTokenService.class, GuardHttpServerFilter.class, GuardMetrics.class,
      GuardDashboard.class, GuardedPublishers.class, Demo.class);

  /** The classes that may keep real time, and why (nested classes go with their outer class). */
  private static final Map<String, String> ALLOWED = Map.of(
      "dev.guard.engine.internal.host.SystemTimeSource",
      "the system time source: the one adapter to the JVM's clock, its coarse ticker included",
      "dev.guard.testkit.ParkedSleepers",
      "ManualClock.awaitSleepers bounds a test's wait for its workers in real time, as documented",
      "dev.guard.redis.Connector",
      "bounds the wait for a Redis connection: network time, which no engine clock can shorten",
      "dev.guard.redis.Clients",
      "bounds the shut-down of Lettuce's threads on close(): a shutdown deadline, not engine time",
      "dev.guard.dashboard.internal.RequestWorkers",
      "cuts off a slow client's request after its deadline: network time, which no engine clock "
          + "can shorten",
      "dev.guard.redis.RedisRuleSource",
      "close() bounds its wait for the notice thread to end: a shutdown deadline, not engine time",
      "dev.guard.Deadlines",
      "the timeout thread parks in real time until the system time's earliest deadline, and looks "
          + "once a millisecond at other time sources (a test's clock), which it cannot wait on",
      "dev.guard.examples.LoadGenerator",
      "the demo bounds the drain of its worker pools at the end of a run, a process's real time");

  @Test
  void everyModule_readsAndWaitsOnRealTimeOnlyInTheAllowedClasses() throws Exception {
    Map<String, List<String>> findings = scanModules();
    findings.keySet().removeIf(name -> ALLOWED.containsKey(outer(name)));

    assertThat(findings).as("classes that read real time or wait on it, and what they use")
        .isEmpty();
  }

  @Test
  void everyAllowedClass_stillNeedsItsException() throws Exception {
    Set<String> offending = new TreeSet<>();
    scanModules().keySet().forEach(name -> offending.add(outer(name)));

    assertThat(offending).as("allowed classes that no longer keep real time: drop them")
        .containsAll(ALLOWED.keySet());
  }

  @Test
  void scan_catchesEveryBannedWay_toReadOrWaitOnRealTime() throws Exception {
    ClassReferences calls = ClassReferences.read(bytes(RealTimeCalls.class));
    Set<String> hit = new TreeSet<>(ClockBans.findings(calls).stream()
        .map(finding -> finding.substring(0, finding.indexOf(':'))).toList());

    Set<String> expected = new TreeSet<>(ClockBans.names());
    expected.removeAll(ClockBans.NOT_EXPRESSIBLE_AT_RELEASE_17);
    assertThat(hit).isEqualTo(expected);
  }

  @Test
  void scan_readsEveryModule() throws Exception {
    Set<Path> locations = new TreeSet<>();
    for (Class<?> anchor : MODULES) {
      Path location = location(anchor);
      locations.add(location);
      assertThat(classFiles(location)).as("classes in " + location).isNotEmpty();
    }
    assertThat(locations).hasSameSizeAs(MODULES);
  }

  private static Map<String, List<String>> scanModules() throws Exception {
    Map<String, List<String>> findings = new TreeMap<>();
    for (Class<?> anchor : MODULES) {
      for (byte[] classFile : classFiles(location(anchor))) {
        ClassReferences references = ClassReferences.read(classFile);
        List<String> found = ClockBans.findings(references);
        if (!found.isEmpty()) {
          findings.put(references.className.replace('/', '.'), found);
        }
      }
    }
    return findings;
  }

  private static String outer(String className) {
    int nested = className.indexOf('$');
    return nested < 0 ? className : className.substring(0, nested);
  }

  private static Path location(Class<?> anchor) throws URISyntaxException {
    return Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  /** Every class file in a classes folder or a jar. */
  private static List<byte[]> classFiles(Path location) throws IOException {
    if (Files.isDirectory(location)) {
      return read(location);
    }
    try (FileSystem jar = FileSystems.newFileSystem(location)) {
      return read(jar.getPath("/"));
    }
  }

  private static List<byte[]> read(Path root) throws IOException {
    List<byte[]> classes = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        if (!file.getFileName().toString().equals("module-info.class")) {
          classes.add(Files.readAllBytes(file));
        }
      }
    }
    return classes;
  }

  private static byte[] bytes(Class<?> type) throws IOException {
    try (InputStream in = Objects.requireNonNull(
        type.getResourceAsStream(type.getSimpleName() + ".class"), type.getName())) {
      return in.readAllBytes();
    }
  }
}
