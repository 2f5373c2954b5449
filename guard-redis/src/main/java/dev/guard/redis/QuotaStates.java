package dev.guard.redis;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The state of each flow id's quotas as this instance last got it from Redis, sent back with the
 * next request as a hint: when Redis lost the quotas' keys (evicted or flushed them, restarted or
 * failed over) while they were not full again, the script restores them from the hint instead of
 * starting from full quotas, and says so (counted in {@link #restored()}).
 *
 * <p>The state is the server's reply, so it is checked before it is kept: a short string of
 * numbers and spaces, else dropped. One entry per flow id with quotas (a flow id is a rule's, so
 * the map is as large as the rule set). Thread-safe; a race between two answers keeps either,
 * both being states the quotas had.
 */
final class QuotaStates {

  /** The longest state kept: three numbers per quota, a rule has a few quotas. */
  private static final int MAX_CHARS = 1024;
  private static final Pattern STATE = Pattern.compile("[0-9 -]*");

  private final Map<String, String> last = new ConcurrentHashMap<>();
  private final AtomicLong restored = new AtomicLong();

  /** The hint for a flow id's next request: its last state, or empty. */
  String hint(String flowId) {
    return last.getOrDefault(flowId, "");
  }

  /**
   * Keeps the state of an answer {@code [code, number, state, lost]} of the values script, and
   * counts a restore; an answer of another shape (or none) changes nothing.
   */
  void keep(String flowId, @Nullable List<Object> answer) {
    if (answer == null || answer.size() < 4 || !(answer.get(2) instanceof String state)
        || !(answer.get(3) instanceof Long lost)) {
      return;
    }
    if (state.isEmpty() || state.length() > MAX_CHARS || !STATE.matcher(state).matches()) {
      last.remove(flowId);
    } else {
      last.put(flowId, state);
    }
    if (lost == 1L) {
      restored.incrementAndGet();
    }
  }

  /** How many times a request found its quotas lost and restored them from the hint. */
  long restored() {
    return restored.get();
  }
}
