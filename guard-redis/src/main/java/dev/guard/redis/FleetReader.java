package dev.guard.redis;

import dev.guard.redis.RedisFleet.Instance;
import dev.guard.redis.RedisFleet.View;
import dev.guard.spi.TimeSource;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The reading half of a {@link RedisFleet}: the registry, then each instance's heartbeat and
 * seconds (bounded by the scripts), checked as hostile input: what is malformed is skipped and
 * counted. Thread-safe.
 */
final class FleetReader {

  /** The heartbeat's fields, in the order the reader asks for them. */
  private static final List<String> FIELDS = List.of("id", "name", "host", "pid", "guard",
      "rules", "revision", "applied", "source", "started", "heartbeat", "seen");
  private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{16}");

  private final String namespace;
  private final String id;
  private final long expiryMs;
  private final int seconds;
  private final @Nullable TimeSource wallClock;
  private final String registryKey;
  private final AtomicLong skipped;
  private final AtomicLong failures;

  /**
   * Makes the reader of one instance.
   *
   * @param skipped counts what was malformed, too large or of another type
   * @param failures counts the reads that failed
   */
  FleetReader(String namespace, String id, long expiryMs, int seconds,
      @Nullable TimeSource wallClock, String registryKey, AtomicLong skipped,
      AtomicLong failures) {
    this.namespace = namespace;
    this.id = id;
    this.expiryMs = expiryMs;
    this.seconds = seconds;
    this.wallClock = wallClock;
    this.registryKey = registryKey;
    this.skipped = skipped;
    this.failures = failures;
  }

  /**
   * Reads the fleet over a connection that is up; never throws for what Redis holds or for
   * Redis failing.
   *
   * @param eviction read after the fleet, for the view
   */
  View read(Connector.Link link, Duration timeout, Supplier<Eviction> eviction) {
    List<?> listed;
    try {
      TimeSource wall = wallClock;
      listed = Scripts.run(link.commands(), timeout, Scripts.FLEET_LIST, ScriptOutputType.MULTI,
          new String[] {registryKey},
          wall == null ? "" : Long.toString(FleetHeartbeat.wallMs(wall)),
          Long.toString(expiryMs), Integer.toString(RedisFleet.MAX_INSTANCES));
    } catch (RuntimeException failed) {
      failures.incrementAndGet();
      return View.unavailable("could not read the fleet: " + failed.getMessage(), id,
          eviction.get());
    }
    long bad = 0;
    long nowMs = FleetCodec.number(String.valueOf(listed.get(0)), Long.MAX_VALUE / 1000);
    List<?> members = listed.get(1) instanceof List<?> list ? list : List.of();
    long nowSecond = Math.floorDiv(nowMs, 1000);
    List<Instance> instances = new ArrayList<>();
    Map<String, Map<Long, FleetCodec.Entry>> figures = new LinkedHashMap<>();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i + 1 < members.size(); i += 2) {
      String member = String.valueOf(members.get(i));
      if (!InstanceIds.valid(member) || !ids.add(member)) {
        bad++;
        continue;
      }
      String own = "guard-fleet:{" + namespace + ":" + member + "}";
      List<?> read;
      try {
        List<String> args = new ArrayList<>(List.of(Integer.toString(RedisFleet.MAX_FIELD_CHARS),
            Integer.toString(FleetCodec.MAX_ENTRY_BYTES), Integer.toString(seconds)));
        args.addAll(FIELDS);
        read = Scripts.run(link.commands(), timeout, Scripts.FLEET_READ, ScriptOutputType.MULTI,
            new String[] {own + ":h", own + ":s"}, args.toArray(new String[0]));
      } catch (RuntimeException unreadable) { // a key of another type, a node away
        bad++;
        continue;
      }
      Instance instance = read.size() == 2 && read.get(0) instanceof List<?> values
          ? instance(member, values, nowMs) : null;
      if (instance == null) {
        if (read.size() == 2 && read.get(0) instanceof List<?> values && values.stream()
            .allMatch(Objects::isNull)) {
          continue; // expired between the two reads: gone, not malformed
        }
        bad++;
        continue;
      }
      instances.add(instance);
      Map<Long, FleetCodec.Entry> secondsOf = new TreeMap<>();
      List<?> entries = read.get(1) instanceof List<?> list ? list : List.of();
      for (Object text : entries) {
        FleetCodec.Entry entry = FleetCodec.decode(text instanceof String s ? s : null);
        if (entry == null || secondsOf.containsKey(entry.epochSecond())) {
          bad++;
          continue;
        }
        if (entry.epochSecond() < nowSecond && entry.epochSecond() >= nowSecond - seconds) {
          secondsOf.put(entry.epochSecond(), entry);
        }
      }
      figures.put(member, secondsOf);
    }
    skipped.addAndGet(bad);
    instances.sort(Comparator.comparing(Instance::id));
    return View.of(nowMs, id, agreement(instances), figures, skipped.get(), eviction.get());
  }

  /** A heartbeat read back, or null when a field is missing or malformed. */
  private @Nullable Instance instance(String member, List<?> values, long nowMs) {
    if (values.size() != FIELDS.size()) {
      return null;
    }
    Map<String, String> beat = new HashMap<>();
    for (int i = 0; i < FIELDS.size(); i++) {
      Object value = values.get(i);
      if (!(value instanceof String text)) {
        return null;
      }
      beat.put(FIELDS.get(i), text);
    }
    long pid = FleetCodec.number(beat.get("pid"), Long.MAX_VALUE);
    long revision = FleetCodec.number(beat.get("revision"), Long.MAX_VALUE);
    long applied = FleetCodec.number(beat.get("applied"), Long.MAX_VALUE / 1000);
    long started = FleetCodec.number(beat.get("started"), Long.MAX_VALUE / 1000);
    long heartbeat = FleetCodec.number(beat.get("heartbeat"), Long.MAX_VALUE / 1000);
    long seen = FleetCodec.number(beat.get("seen"), Long.MAX_VALUE / 1000);
    String rules = beat.get("rules");
    if (!member.equals(beat.get("id")) || pid < 0 || revision < 0 || applied < 0 || started < 0
        || heartbeat < 1 || seen < 0 || rules == null || !DIGEST.matcher(rules).matches()) {
      return null;
    }
    boolean alive = nowMs - seen <= 3 * Math.min(heartbeat, expiryMs);
    return new Instance(member, text(beat, "name"), text(beat, "host"), pid,
        text(beat, "guard"), alive, seen, started, rules, revision, applied,
        text(beat, "source"), true, member.equals(id));
  }

  private static String text(Map<String, String> beat, String field) {
    return Objects.requireNonNullElse(beat.get(field), "");
  }

  /**
   * Marks the instances whose rule set differs from the one most alive instances apply (on a
   * tie, the one applied most recently).
   */
  private static List<Instance> agreement(List<Instance> instances) {
    Map<String, long[]> votes = new HashMap<>(); // digest: {alive instances, newest applied}
    for (Instance instance : instances) {
      if (instance.alive()) {
        long[] vote = votes.computeIfAbsent(instance.rules(), r -> new long[2]);
        vote[0]++;
        vote[1] = Math.max(vote[1], instance.rulesAppliedAtMs());
      }
    }
    String inForce = null;
    long[] best = {0, 0};
    for (Map.Entry<String, long[]> vote : votes.entrySet()) {
      long[] v = vote.getValue();
      if (inForce == null || v[0] > best[0] || v[0] == best[0] && v[1] > best[1]) {
        inForce = vote.getKey();
        best = v;
      }
    }
    List<Instance> marked = new ArrayList<>(instances.size());
    for (Instance instance : instances) {
      boolean agrees = inForce == null || instance.rules().equals(inForce);
      marked.add(agrees ? instance : instance.disagreeing());
    }
    return marked;
  }
}
