package dev.guard.engine.internal;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.engine.Entry;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.node.DefaultNode;
import dev.guard.engine.internal.stat.StatisticNode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * One call to a resource as it travels through the engine: what slots read to decide it (permits,
 * arguments, context, nodes, decision time) and what exit needs (creation time, error, chain).
 *
 * <p>Exit runs exactly once, so double closes and closes racing on several threads cannot
 * unbalance a gauge: a compare-and-set guards it, except on a pooled entry (the decorator path),
 * which only its owner thread ever exits ({@link EngineCore#exit} makes sure), so a plain check
 * suffices there.
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

  private static final Object[] NO_ARGS = new Object[0];

  final EngineCore core;
  final boolean pooled;
  ResourceState resource;
  Context context;
  @Nullable CallEntry parent;
  @Nullable DefaultNode node;
  @Nullable StatisticNode originNode;
  boolean onContextNode;
  /** Entered on a closed engine: nothing was decided or recorded, so nothing is at exit. */
  boolean unchecked;
  Chain chain;
  long createMs;
  int depth;
  private long generation;
  private EntryType type;
  private int count;
  private boolean prioritized;
  private @Nullable Object[] args;
  private @Nullable Object @Nullable [] heldArgument; // reused by holdArgument
  private @Nullable Object @Nullable [] heldPair; // reused by holdArguments
  private long nowNanos;
  private boolean borrowed;
  private @Nullable Throwable error;
  @Nullable RefusedException blockError;
  private long exitMs;
  private int grantCursor;
  private long @Nullable [] grantBits; // per slot position: what the slot granted this call
  private @Nullable Object @Nullable [] grants;
  @SuppressWarnings("unused") // accessed through EXITED
  private volatile boolean exited;

  /**
   * Creates an entry for a call site in {@code context}, pushed on top of the context's current
   * entry. The decorator path reuses entries through {@link #reuse}; each use has a new {@link
   * #generation()} so that a stale holder cannot close a later use.
   */
  CallEntry(
      EngineCore core,
      boolean pooled,
      CallSite site,
      Context context,
      @Nullable Object @Nullable [] args,
      long nowNanos) {
    this.core = core;
    this.pooled = pooled;
    this.resource = site.resource();
    this.context = context;
    this.chain = resource.chain();
    this.type = site.type();
    reuse(site, context, args, nowNanos);
  }

  void reuse(CallSite site, Context newContext, @Nullable Object @Nullable [] newArgs, long now) {
    generation++;
    resource = site.resource();
    context = newContext;
    parent = newContext.current;
    depth = parent == null ? 0 : parent.depth + 1;
    node = null;
    originNode = null;
    onContextNode = false;
    unchecked = false;
    chain = resource.chain();
    type = site.type();
    count = site.permits();
    prioritized = site.prioritized();
    args = newArgs == null ? NO_ARGS : newArgs;
    dropArgument();
    nowNanos = now;
    createMs = now / 1_000_000L;
    borrowed = false;
    error = null;
    blockError = null;
    exitMs = createMs;
    long[] bits = grantBits; // a slot whose enter did not run must not read another use's grants
    if (bits != null) {
      Arrays.fill(bits, 0L);
    }
    @Nullable Object[] held = grants;
    if (held != null) {
      Arrays.fill(held, null);
    }
    EXITED.setRelease(this, false);
  }

  /** Which use of this entry object this is; see {@link #close(long)}. */
  public long generation() {
    return generation;
  }

  /**
   * Records an error only if this entry is still in the given use.
   *
   * @param use the generation the caller entered with
   * @param failure the error
   */
  public void recordError(long use, Throwable failure) {
    if (generation == use) {
      recordError(failure);
    }
  }

  /**
   * Exits this entry only if it is still in the given use.
   *
   * @param use the generation the caller entered with
   */
  public void close(long use) {
    if (generation == use) {
      core.exit(this);
    }
  }

  boolean reusable() {
    return isExited();
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

  /**
   * Makes {@code argument} the call's only argument without allocating: the entry keeps a
   * one-element array for it (the decorator path reuses entries).
   */
  void holdArgument(@Nullable Object argument) {
    @Nullable Object[] held = heldArgument;
    if (held == null) {
      held = new Object[1];
      heldArgument = held;
    }
    held[0] = argument;
    args = held;
  }

  /**
   * Makes {@code first} and {@code second} the call's two arguments without allocating: the entry
   * keeps a two-element array for them.
   */
  void holdArguments(@Nullable Object first, @Nullable Object second) {
    @Nullable Object[] held = heldPair;
    if (held == null) {
      held = new Object[2];
      heldPair = held;
    }
    held[0] = first;
    held[1] = second;
    args = held;
  }

  /** Lets go of held arguments once the call is over, so a pooled entry does not keep them alive. */
  void dropArgument() {
    @Nullable Object[] held = heldArgument;
    if (held != null) {
      held[0] = null;
    }
    @Nullable Object[] pair = heldPair;
    if (pair != null) {
      pair[0] = null;
      pair[1] = null;
    }
  }

  /** The call's arguments (for per-value rules); may contain nulls. */
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

  /** Points the grant accessors at the slot in this chain position (the chain does this). */
  public void grantCursor(int slot) {
    grantCursor = slot;
  }

  /**
   * Remembers bits of what the current slot granted this call, for its {@code abandon} hook.
   *
   * @param bits the slot's own encoding
   */
  public void keepGrantBits(long bits) {
    long[] kept = grantBits;
    if (kept == null) {
      kept = new long[Chain.MAX_SLOTS];
      grantBits = kept;
    }
    kept[grantCursor] = bits;
  }

  /** The bits the current slot kept with {@link #keepGrantBits}; 0 if none. */
  public long grantBits() {
    long[] kept = grantBits;
    return kept == null ? 0L : kept[grantCursor];
  }

  /**
   * Remembers an object describing what the current slot granted this call (a reservation), for
   * its {@code abandon} or {@code exit} hook. Dropped when the entry is reused.
   *
   * @param grant the slot's own record, or null
   */
  public void keepGrant(@Nullable Object grant) {
    @Nullable Object[] kept = grants;
    if (kept == null) {
      if (grant == null) {
        return;
      }
      kept = new Object[Chain.MAX_SLOTS];
      grants = kept;
    }
    kept[grantCursor] = grant;
  }

  /** The object the current slot kept with {@link #keepGrant}; null if none. */
  public @Nullable Object grant() {
    @Nullable Object[] kept = grants;
    return kept == null ? null : kept[grantCursor];
  }

  /** The response time of an exited call in milliseconds, waits included; 0 before exit. */
  public long rtMs() {
    return Math.max(0L, exitMs - createMs);
  }

  /** When the call exited, in engine milliseconds; its creation time before exit. */
  public long exitMs() {
    return exitMs;
  }

  void completedAt(long nowMs) {
    exitMs = nowMs;
  }

  /** Why the call was refused; null when it was admitted. */
  public @Nullable RefusedException refusal() {
    return blockError;
  }

  /** The traced business error, if any. */
  public @Nullable Throwable error() {
    return error;
  }

  @Override
  public void recordError(Throwable failure) {
    if (failure == null || failure instanceof RefusedException || isExited()) {
      return;
    }
    error = failure;
  }

  /** Marks an entry exited that no other thread has seen (refused before it was pushed). */
  void markExitedUnseen() {
    EXITED.setRelease(this, true);
  }

  boolean tryMarkExited() {
    if (pooled) { // only the owner thread exits a pooled entry: no other thread races with it
      if ((boolean) EXITED.get(this)) {
        return false;
      }
      EXITED.setRelease(this, true);
      return true;
    }
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
