package dev.guard.grpc;

import dev.guard.api.EntryType;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * The resource handles one interceptor has created, by full method name, bounded as guard-http's
 * inbound adapters bound theirs (the same rule, kept here so that this module needs no HTTP
 * module): once {@code max} names are known, a further name gets the handle of one overflow
 * resource and is counted, and so does a name longer than {@link #MAX_NAME_LENGTH}; a name the
 * engine has rules for always gets its own handle. Names are never forgotten. The bound holds
 * under races because a slot is reserved before a handle is created and given back if another
 * thread won.
 */
final class ResourceTable {

  /** The longest resource name that gets a resource of its own, in characters. */
  static final int MAX_NAME_LENGTH = 1024;

  private final GuardEngine engine;
  private final EntryType type;
  private final int max;
  private final String overflowName;
  private final ConcurrentHashMap<String, GuardedResource> handles = new ConcurrentHashMap<>();
  private final AtomicInteger reserved = new AtomicInteger();
  private final LongAdder overflows = new LongAdder();
  private volatile @Nullable GuardedResource overflow;

  ResourceTable(GuardEngine engine, EntryType type, int max, String overflowName) {
    this.engine = engine;
    this.type = type;
    this.max = max;
    this.overflowName = overflowName;
  }

  /** The handle for a name, created while the table has room, else the overflow handle. */
  GuardedResource handle(String name) {
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

  long overflows() {
    return overflows.sum();
  }
}
