package dev.guard.engine.internal;

import dev.guard.api.BlockedException;
import dev.guard.api.EntryType;
import dev.guard.engine.Entry;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.node.DefaultNode;
import dev.guard.engine.internal.stat.StatisticNode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * One call to a resource as it travels through the engine: what slots read to decide it (permits,
 * arguments, context, nodes, decision time) and what exit needs (creation time, error, chain).
 *
 * <p>Exit runs exactly once, guarded by a compare-and-set, so double closes and closes racing on
 * several threads cannot unbalance a gauge.
 */
public final class CallEntry implements Entry {

  private static final VarHandle EXITED;

  static {
    try {
      EXITED = MethodHandles.lookup().findVarHandle(CallEntry.class, "exited", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final EngineCore core;
  final ResourceState resource;
  final Context context;
  final @Nullable CallEntry parent;
  final @Nullable DefaultNode node;
  final @Nullable StatisticNode originNode;
  final Chain chain;
  final long createMs;
  private final EntryType type;
  private final int count;
  private final boolean prioritized;
  private final @Nullable Object[] args;
  private long nowNanos;
  private boolean borrowed;
  private @Nullable Throwable error;
  @Nullable BlockedException blockError;
  @SuppressWarnings("unused") // accessed through EXITED
  private volatile boolean exited;

  CallEntry(
      EngineCore core,
      ResourceState resource,
      Context context,
      @Nullable DefaultNode node,
      @Nullable StatisticNode originNode,
      EntryType type,
      int count,
      boolean prioritized,
      @Nullable Object[] args,
      long nowNanos) {
    this.core = core;
    this.resource = resource;
    this.context = context;
    this.parent = context.current;
    this.node = node;
    this.originNode = originNode;
    this.chain = resource.chain();
    this.type = type;
    this.count = count;
    this.prioritized = prioritized;
    this.args = args;
    this.nowNanos = nowNanos;
    this.createMs = nowNanos / 1_000_000L;
  }

  @Override
  public String resource() {
    return resource.name();
  }

  @Override
  public EntryType type() {
    return type;
  }

  /** The permits this call asks for. */
  public int count() {
    return count;
  }

  /** Whether this call may borrow from a future window. */
  public boolean prioritized() {
    return prioritized;
  }

  /** The call's arguments (for hot-parameter rules); may contain nulls. */
  public @Nullable Object[] args() {
    return args;
  }

  /** The caller's origin; empty when unknown. */
  public String origin() {
    return context.origin;
  }

  /** The name of the context (entrance) the call runs in. */
  public String contextName() {
    return context.name();
  }

  /** This resource's node for the call's context; null for untracked resources. */
  public @Nullable DefaultNode node() {
    return node;
  }

  /** The origin node of this resource for the call's origin; null when none. */
  public @Nullable StatisticNode originNode() {
    return originNode;
  }

  /** The decision time in engine nanoseconds (advanced by waits). */
  public long nowNanos() {
    return nowNanos;
  }

  /** The decision time in engine milliseconds. */
  public long nowMs() {
    return nowNanos / 1_000_000L;
  }

  /**
   * Notes that the call waited; later decisions happen that much later.
   *
   * @param nanos the wait
   */
  public void waited(long nanos) {
    nowNanos += nanos;
  }

  /** Notes that the call was admitted on a pass borrowed from a future bucket. */
  public void markBorrowed() {
    borrowed = true;
  }

  boolean borrowed() {
    return borrowed;
  }

  /** The traced business error, if any. */
  public @Nullable Throwable error() {
    return error;
  }

  @Override
  public void recordError(Throwable failure) {
    if (failure == null || failure instanceof BlockedException || isExited()) {
      return;
    }
    error = failure;
  }

  boolean tryMarkExited() {
    return EXITED.compareAndSet(this, false, true);
  }

  boolean isExited() {
    return (boolean) EXITED.getVolatile(this);
  }

  @Override
  public void close() {
    core.exit(this);
  }

  @Override
  public String toString() {
    return "Entry[" + resource.name() + "]";
  }
}
