package dev.guard.redis;

import dev.guard.api.PeriodStats;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.rules.RuleFormat;
import dev.guard.spi.TimeSource;
import io.lettuce.core.ScriptOutputType;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The publishing half of a {@link RedisFleet}: one instance's heartbeat (who it is, the rule set it
 * applies) and its closed seconds, written to its own two keys and its registry entry. Keeps what
 * it published last (the seconds, the offset of the engine's clock to the fleet's). Not
 * thread-safe: the fleet calls it under its lock.
 */
final class FleetHeartbeat {

  private final GuardEngine engine;
  private final String id;
  private final String name;
  private final long heartbeatMs;
  private final long expiryMs;
  private final int seconds;
  private final @Nullable TimeSource wallClock;
  private final String registryKey;
  private final String[] ownKeys;
  private final AtomicLong leftOut;
  private final AtomicLong failures;
  private @Nullable String host;
  private long startedMs = -1;
  private long offsetMs;
  private boolean offsetKnown;
  private long publishedToMs = -1;
  private @Nullable RuleSet digested;
  private String digest = "";

  /**
   * Makes the heartbeat of one instance.
   *
   * @param leftOut counts the resources left out of entries that would have been too large
   * @param failures counts the heartbeats Redis did not take
   */
  FleetHeartbeat(GuardEngine engine, String id, String name, long heartbeatMs, long expiryMs,
      int seconds, @Nullable TimeSource wallClock, String registryKey, String[] ownKeys,
      AtomicLong leftOut, AtomicLong failures) {
    this.engine = engine;
    this.id = id;
    this.name = name;
    this.heartbeatMs = heartbeatMs;
    this.expiryMs = expiryMs;
    this.seconds = seconds;
    this.wallClock = wallClock;
    this.registryKey = registryKey;
    this.ownKeys = ownKeys;
    this.leftOut = leftOut;
    this.failures = failures;
  }

  /**
   * Publishes one heartbeat and the seconds that closed since the last one.
   *
   * @return whether Redis took it (a failure is counted)
   */
  boolean publish(Connector.Link link, Duration timeout) {
    if (host == null) {
      host = hostName();
    }
    long engineNow = engine.timeMs();
    TimeSource wall = wallClock;
    if (!offsetKnown && wall != null) {
      offsetMs = wallMs(wall) - engineNow;
      offsetKnown = true;
    }
    boolean withSeconds = offsetKnown;
    long toMs = Math.floorDiv(engineNow, 1000) * 1000;
    long fromMs = publishedToMs < 0 ? Math.max(0, toMs - seconds * 1000L) : publishedToMs;
    List<String> entries = withSeconds && toMs > fromMs ? entries(fromMs, toMs) : List.of();
    List<String> args = new ArrayList<>();
    args.add(wall == null ? "" : Long.toString(wallMs(wall)));
    args.add(Long.toString(expiryMs));
    args.add(Integer.toString(seconds));
    Map<String, String> beat = heartbeat();
    args.add(Integer.toString(beat.size()));
    beat.forEach((field, value) -> {
      args.add(field);
      args.add(value);
    });
    args.addAll(entries);
    try {
      Object stamped = Scripts.run(link.commands(), timeout, Scripts.FLEET_PUBLISH,
          ScriptOutputType.VALUE, ownKeys, args.toArray(new String[0]));
      String now = String.valueOf(stamped);
      Scripts.run(link.commands(), timeout, Scripts.FLEET_REGISTER, ScriptOutputType.INTEGER,
          new String[] {registryKey}, now, id, Long.toString(expiryMs));
      long nowMs = Long.parseLong(now);
      if (withSeconds) {
        publishedToMs = toMs;
      } else { // the server's clock: the first heartbeat places the engine's seconds on it
        offsetMs = nowMs - engineNow;
        offsetKnown = true;
      }
      if (startedMs < 0) {
        startedMs = nowMs;
      }
      return true;
    } catch (RuntimeException failed) {
      failures.incrementAndGet();
      return false;
    }
  }

  /** The entries of the closed seconds in [from, to), oldest first, at most {@code seconds}. */
  private List<String> entries(long fromMs, long toMs) {
    long from = Math.max(fromMs, toMs - seconds * 1000L);
    TreeMap<Long, Map<String, PeriodStats>> bySecond = new TreeMap<>();
    for (String resource : engine.resources()) {
      for (PeriodStats second : engine.metricsHistory(resource, from, toMs)) {
        bySecond.computeIfAbsent(second.fromMs(), s -> new HashMap<>()).put(resource, second);
      }
    }
    List<String> entries = new ArrayList<>(bySecond.size());
    bySecond.forEach((fromOfSecond, resources) -> {
      FleetCodec.Encoded entry =
          FleetCodec.encode(Math.floorDiv(fromOfSecond + offsetMs, 1000), resources);
      leftOut.addAndGet(entry.leftOut());
      entries.add(entry.text());
    });
    return entries;
  }

  private Map<String, String> heartbeat() {
    RuleSet rules = engine.ruleSet();
    if (rules != digested) {
      digest = digest(rules);
      digested = rules;
    }
    List<RuleSet.Revision> history = engine.ruleHistory();
    RuleSet.Revision latest = history.isEmpty() ? null : history.get(history.size() - 1);
    Map<String, String> beat = new LinkedHashMap<>();
    beat.put("id", id);
    beat.put("name", cut(name));
    beat.put("host", cut(Objects.requireNonNullElse(host, "")));
    beat.put("pid", Long.toString(ProcessHandle.current().pid()));
    beat.put("guard", cut(guardVersion()));
    beat.put("rules", digest);
    beat.put("revision", latest == null ? "0" : Long.toString(latest.number()));
    beat.put("applied", latest == null ? "0" : Long.toString(latest.appliedAt().toEpochMilli()));
    beat.put("source", latest == null ? "" : cut(latest.source()));
    beat.put("started", startedMs < 0 ? "" : Long.toString(startedMs)); // "": this heartbeat
    beat.put("heartbeat", Long.toString(heartbeatMs));
    return beat;
  }

  /**
   * A digest of the rule set in force: the first 16 hex digits of the SHA-256 of its JSON rule
   * document, so equal sets have equal digests on every instance.
   */
  static String digest(RuleSet rules) {
    String document;
    try {
      document = RuleFormat.write(rules);
    } catch (IllegalArgumentException unwritable) {
      document = "unwritable " + rules;
    }
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256")
          .digest(document.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 8);
    } catch (NoSuchAlgorithmException missing) {
      throw new IllegalStateException(missing);
    }
  }

  private static String guardVersion() {
    String version = GuardEngine.class.getPackage().getImplementationVersion();
    return version != null ? version : "development";
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException | SecurityException unknown) {
      return "unknown";
    }
  }

  private static String cut(String value) {
    return value.length() <= RedisFleet.MAX_FIELD_CHARS ? value
        : value.substring(0, RedisFleet.MAX_FIELD_CHARS);
  }

  static long wallMs(TimeSource time) {
    return time.wallTime().toEpochMilli();
  }
}
