package dev.guard.http.internal;

import dev.guard.api.EntryType;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * The resource handles one adapter has created, by resource name, bounded: once {@code max}
 * names are known, a request for a further name gets the handle of one overflow resource and is
 * counted, and so does a name longer than {@link #MAX_NAME_LENGTH}. A name the engine has rules
 * for always gets its own handle, full table or not, so filling the table with made-up names
 * never takes a configured resource out of its rules (such names are bounded by the engine's own
 * resource cap). Names are never forgotten, so a name keeps its handle (and its statistics and
 * rules) for the adapter's life; the bound holds exactly under races because a slot is reserved
 * before a handle is created and given back if another thread won.
 */
public final class ResourceTable {

  /** The longest resource name that gets a resource of its own, in characters. */
  public static final int MAX_NAME_LENGTH = 1024;

  private final GuardEngine engine;
  private final EntryType type;
  private final int max;
  private final String overflowName;
  private final ConcurrentHashMap<String, GuardedResource> handles = new ConcurrentHashMap<>();
  private final AtomicInteger reserved = new AtomicInteger();
  private final LongAdder overflows = new LongAdder();
  private volatile @Nullable GuardedResource overflow;

  /**
   * Creates an empty table.
   *
   * @param engine the engine the handles belong to
   * @param type the entry type of every handle
   * @param max the most distinct names, {@code > 0}
   * @param overflowName the resource that names beyond {@code max} map to
   */
  public ResourceTable(GuardEngine engine, EntryType type, int max, String overflowName) {
    this.engine = engine;
    this.type = type;
    this.max = max;
    this.overflowName = overflowName;
  }

  /**
   * Returns the handle for a resource name, creating it while the table has room.
   *
   * @param name the resource name
   * @return its handle, or the overflow resource's handle when the table is full
   */
  public GuardedResource handle(String name) {
    GuardedResource known = handles.get(name);
    if (known != null) {
      return known;
    }
    if (name.length() > MAX_NAME_LENGTH) {
      return overflowHandle();
    }
    if (reserved.incrementAndGet() > max) {
      reserved.decrementAndGet();
      GuardedResource raced = handles.get(name);
      if (raced != null) {
        return raced;
      }
      return engine.rules(name).isEmpty() ? overflowHandle() : add(name, false);
    }
    return add(name, true);
  }

  /** Creates and records a name's handle; gives its slot back if another thread won the race. */
  private GuardedResource add(String name, boolean slotReserved) {
    GuardedResource created = engine.resource(name).entryType(type);
    GuardedResource raced = handles.putIfAbsent(name, created);
    if (raced != null) {
      if (slotReserved) {
        reserved.decrementAndGet();
      }
      return raced;
    }
    return created;
  }

  private GuardedResource overflowHandle() {
    overflows.increment();
    GuardedResource handle = overflow;
    if (handle == null) {
      handle = engine.resource(overflowName).entryType(type); // a benign race: equal handles
      overflow = handle;
    }
    return handle;
  }

  /**
   * Returns how many lookups were mapped to the overflow resource.
   *
   * @return the count
   */
  public long overflows() {
    return overflows.sum();
  }

  /**
   * Returns how many distinct names have their own handle.
   *
   * @return the count: at most the bound, plus the names added for their rules once it was full
   */
  public int size() {
    return handles.size();
  }
}
