package dev.guard.architecture;

import dev.guard.architecture.ClassReferences.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Every way a class can read real time or wait on it, as references in its constant pool: clock
 * reads, sleeps and parks, waits with a timeout of any API (a {@code (long, TimeUnit)} pair, a
 * nanosecond count, a {@code Duration}), and schedulers. A reference counts wherever it is, so a
 * method reference or an unused call is reported too.
 */
final class ClockBans {

  private record Ban(String name, Predicate<Method> method, String type) {}

  private static final String TIME_UNIT = "java/util/concurrent/TimeUnit";

  private static final List<Ban> BANS = List.of(
      calls("System.nanoTime/currentTimeMillis", m -> m.owner().equals("java/lang/System")
          && (m.name().equals("nanoTime") || m.name().equals("currentTimeMillis"))),
      calls("java.time now()", m -> m.owner().startsWith("java/time/") && m.name().equals("now")),
      type("java.time.Clock", "java/time/Clock"),
      type("java.time.InstantSource", "java/time/InstantSource"),
      calls("new Date()", m -> m.owner().equals("java/util/Date") && m.name().equals("<init>")
          && m.descriptor().equals("()V")),
      calls("Calendar.getInstance", m -> m.owner().equals("java/util/Calendar")
          && m.name().equals("getInstance")),
      calls("RuntimeMXBean uptime", m -> m.owner().equals("java/lang/management/RuntimeMXBean")
          && (m.name().equals("getUptime") || m.name().equals("getStartTime"))),
      calls("Thread.sleep", m -> m.owner().equals("java/lang/Thread") && m.name().equals("sleep")),
      calls("Thread.join with a timeout", m -> m.owner().equals("java/lang/Thread")
          && m.name().equals("join") && !m.descriptor().equals("()V")),
      calls("Object.wait with a timeout", m -> m.name().equals("wait")
          && (m.descriptor().equals("(J)V") || m.descriptor().equals("(JI)V"))),
      calls("LockSupport.parkNanos/parkUntil",
          m -> m.owner().equals("java/util/concurrent/locks/LockSupport")
              && (m.name().equals("parkNanos") || m.name().equals("parkUntil"))),
      calls("Unsafe.park", m -> m.owner().endsWith("/Unsafe") && m.name().equals("park")),
      calls("TimeUnit.sleep/timedWait/timedJoin", m -> m.owner().equals(TIME_UNIT)
          && Set.of("sleep", "timedWait", "timedJoin").contains(m.name())),
      calls("a wait with a (long, TimeUnit) timeout", m -> !m.owner().startsWith("dev/guard/")
          && !m.owner().equals(TIME_UNIT)
          && m.parameters().contains("JL" + TIME_UNIT + ";")),
      calls("a wait in nanoseconds or until a date", m -> !m.owner().startsWith("dev/guard/")
          && Set.of("awaitNanos", "awaitUntil", "tryAcquireNanos", "tryAcquireSharedNanos")
              .contains(m.name())),
      calls("a JDK wait with a Duration timeout", m -> m.owner().startsWith("java/")
          && m.parameters().contains("Ljava/time/Duration;")
          && Set.of("sleep", "join", "await", "waitFor", "get", "poll", "offer", "tryAcquire",
              "tryLock", "awaitTermination", "close").contains(m.name())),
      calls("Selector.select with a timeout", m -> m.owner().equals("java/nio/channels/Selector")
          && m.name().equals("select") && m.descriptor().equals("(J)I")),
      type("ScheduledExecutorService", "java/util/concurrent/ScheduledExecutorService"),
      type("ScheduledThreadPoolExecutor", "java/util/concurrent/ScheduledThreadPoolExecutor"),
      type("java.util.Timer", "java/util/Timer"),
      type("java.util.TimerTask", "java/util/TimerTask"));

  /** Bans that a class compiled with {@code --release 17} cannot show without tricks. */
  static final Set<String> NOT_EXPRESSIBLE_AT_RELEASE_17 =
      Set.of("Unsafe.park", "a JDK wait with a Duration timeout");

  private ClockBans() {}

  private static Ban calls(String name, Predicate<Method> method) {
    return new Ban(name, method, "");
  }

  private static Ban type(String name, String internalName) {
    return new Ban(name, m -> false, internalName);
  }

  static List<String> names() {
    return BANS.stream().map(Ban::name).toList();
  }

  /** What a class refers to that is banned, as {@code "ban: reference"}, each once. */
  static List<String> findings(ClassReferences references) {
    List<String> found = new ArrayList<>();
    for (Ban ban : BANS) {
      for (Method method : references.methods) {
        if (ban.method().test(method)) {
          add(found, ban.name() + ": " + method);
        }
      }
      if (!ban.type().isEmpty() && names(references, ban.type())) {
        add(found, ban.name() + ": " + ban.type().replace('/', '.'));
      }
    }
    return found;
  }

  private static boolean names(ClassReferences references, String type) {
    String inDescriptor = "L" + type + ";";
    return references.classes.contains(type)
        || references.strings.stream().anyMatch(s -> s.contains(inDescriptor));
  }

  private static void add(List<String> found, String finding) {
    if (!found.contains(finding)) {
      found.add(finding);
    }
  }
}
