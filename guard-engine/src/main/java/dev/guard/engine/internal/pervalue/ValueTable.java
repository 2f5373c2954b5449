package dev.guard.engine.internal.pervalue;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The values one per-value rule remembers, bounded, with least-recently-used eviction
 * approximated by two generations.
 *
 * <p>New values go into the current generation. When it holds {@code maxValues / 2} values it
 * becomes the previous generation, a new empty one becomes current, and the old previous
 * generation is forgotten. A value found in the previous generation moves to the current one when
 * it is used. So a value is forgotten only after at least {@code maxValues / 2} other values were
 * first seen since its last use, and at most {@code maxValues} values are remembered (plus, for
 * concurrency limits, values with calls running, which are carried over instead of forgotten).
 *
 * <p>A lookup of a current value is one hash-map read and allocates nothing; the slow paths (a new
 * value, a move, a rotation) allocate. Rotation happens under the table's monitor, never on a
 * lookup of a known value; forgotten values are reported through the callback after the monitor is
 * released. Under races a value may be forgotten slightly early (a concurrent rotation), never
 * kept beyond the bound by more than the racing inserts.
 */
final class ValueTable {

  private final ValueGate gate;
  private final int generationSize;
  private final LongConsumer forgotten;
  private volatile ConcurrentHashMap<Object, ValueState> current;
  private volatile ConcurrentHashMap<Object, ValueState> previous;

  /**
   * Creates an empty table.
   *
   * @param gate the rule's gate (it says which states may be forgotten)
   * @param maxValues the bound; {@code >= 2}
   * @param forgotten told how many values a rotation forgot
   */
  ValueTable(ValueGate gate, int maxValues, LongConsumer forgotten) {
    this.gate = gate;
    this.generationSize = maxValues / 2;
    this.forgotten = forgotten;
    this.current = newGeneration();
    this.previous = newGeneration();
  }

  private ConcurrentHashMap<Object, ValueState> newGeneration() {
    return new ConcurrentHashMap<>(Math.min(generationSize, 1 << 16));
  }

  /**
   * The state of a value, if remembered.
   *
   * @param value the value
   * @return its state, or null
   */
  @Nullable ValueState find(Object value) {
    ConcurrentHashMap<Object, ValueState> now = current;
    ValueState state = now.get(value);
    if (state != null) {
      if (!gate.retired(state)) {
        return state;
      }
      now.remove(value, state);
    }
    ConcurrentHashMap<Object, ValueState> before = previous;
    state = before.get(value);
    if (state == null || gate.retired(state)) {
      return null;
    }
    ValueState raced = now.putIfAbsent(value, state);
    before.remove(value, state);
    if (raced == null) {
      afterInsert(now);
      return state;
    }
    return gate.retired(raced) ? null : raced;
  }

  /**
   * The state of a value, if remembered, without counting it as a use (it does not move to the
   * current generation): for reads off the call path.
   *
   * @param value the value
   * @return its state, or null
   */
  @Nullable ValueState peek(Object value) {
    ValueState state = current.get(value);
    if (state == null || gate.retired(state)) {
      state = previous.get(value);
    }
    return state == null || gate.retired(state) ? null : state;
  }

  /**
   * Remembers a new value, unless another thread remembered it first.
   *
   * @param value the value
   * @param fresh its new state
   * @return the state now remembered for the value
   */
  ValueState insert(Object value, ValueState fresh) {
    while (true) {
      ConcurrentHashMap<Object, ValueState> now = current;
      ValueState raced = now.putIfAbsent(value, fresh);
      if (raced == null) {
        afterInsert(now);
        return fresh;
      }
      if (!gate.retired(raced)) {
        return raced;
      }
      now.remove(value, raced);
    }
  }

  private void afterInsert(ConcurrentHashMap<Object, ValueState> now) {
    if (now.mappingCount() >= generationSize) {
      long count = rotate(now);
      if (count > 0) {
        forgotten.accept(count);
      }
    }
  }

  private synchronized long rotate(ConcurrentHashMap<Object, ValueState> full) {
    if (current != full) {
      return 0;
    }
    ConcurrentHashMap<Object, ValueState> old = previous;
    long count;
    if (gate.keepsBusyValues()) {
      count = 0;
      for (Map.Entry<Object, ValueState> entry : old.entrySet()) {
        if (gate.retire(entry.getValue())) {
          count++;
        } else {
          full.putIfAbsent(entry.getKey(), entry.getValue());
        }
      }
    } else {
      count = old.mappingCount();
    }
    previous = full;
    current = newGeneration();
    return count;
  }

  /**
   * Values a single-permit call would be refused for now (read only: nothing is taken, moved or
   * retired).
   *
   * @param max the most values to return
   * @param nowNanos engine time in nanoseconds
   * @return up to {@code max} values, current generation first
   */
  List<Object> limitedValues(int max, long nowNanos) {
    Set<Object> limited = new LinkedHashSet<>();
    for (ConcurrentHashMap<Object, ValueState> generation : List.of(current, previous)) {
      for (Map.Entry<Object, ValueState> entry : generation.entrySet()) {
        ValueState state = entry.getValue();
        if (limited.size() >= max) {
          return List.copyOf(limited);
        }
        if (!gate.retired(state) && !gate.admits(state, state.threshold, 1, nowNanos)) {
          limited.add(entry.getKey());
        }
      }
    }
    return List.copyOf(limited);
  }

  /** How many values are remembered now (both generations). */
  long size() {
    return current.mappingCount() + previous.mappingCount();
  }
}
