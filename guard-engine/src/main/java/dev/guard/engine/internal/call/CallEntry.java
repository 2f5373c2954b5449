package dev.guard.engine.internal.call;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.engine.internal.chain.Call;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.node.DefaultNode;
import dev.guard.engine.internal.registry.ResourceState;
import dev.guard.engine.internal.stat.StatisticNode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * One call to a resource as it travels through the engine: the {@link Call} its slots read, plus
 * what the call path needs around it (resource, context, the entry below it, the chain that
 * decided it, whether it was refused or has exited).
 *
 * <p>Exit runs exactly once, so double closes and closes racing on several threads cannot
 * unbalance a gauge: a compare-and-set guards it, except on a pooled entry (the decorator path),
 * which only its owner thread ever exits ({@link CallPath#exit} makes sure), so a plain check
 * suffices there.
 */
public final class CallEntry extends Call implements Entry {

  private static final VarHandle EXITED;

  static {
    try {
      EXITED = MethodHandles.lookup().findVarHandle(CallEntry.class, "exited", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final CallPath path;
  final boolean pooled;
  ResourceState resource;
  Context context;
  @Nullable CallEntry parent;
  boolean onContextNode;
  /** Entered on a closed engine: nothing was decided or recorded, so nothing is at exit. */
  boolean unchecked;
  Chain chain;
  int depth;
  private @Nullable Object @Nullable [] heldArgument; // reused by holdArgument
  private @Nullable Object @Nullable [] heldPair; // reused by holdArguments
  @Nullable RefusedException refusal;
  @SuppressWarnings("unused") // accessed through EXITED
  private volatile boolean exited;

  /**
   * Creates an entry for a call site in {@code context}, pushed on top of the context's current
   * entry. The decorator path reuses entries through {@link #reuse}; each use has a new {@link
   * #generation()} so that a stale holder cannot close a later use.
   */
  CallEntry(
      CallPath path,
      boolean pooled,
      CallSite site,
      Context context,
      @Nullable Object @Nullable [] args,
      long nowNanos) {
    super(site.type());
    this.path = path;
    this.pooled = pooled;
    this.resource = site.resource();
    this.context = context;
    this.chain = resource.chain();
    reuse(site, context, args, nowNanos);
  }

  void reuse(CallSite site, Context newContext, @Nullable Object @Nullable [] newArgs, long now) {
    begin(now, newArgs);
    resource = site.resource();
    context = newContext;
    origin = newContext.origin;
    entrance = newContext.name();
    parent = newContext.current;
    depth = parent == null ? 0 : parent.depth + 1;
    onContextNode = false;
    unchecked = false;
    chain = resource.chain();
    type = site.type();
    count = site.permits();
    prioritized = site.prioritized();
    dropArgument();
    refusal = null;
    EXITED.setRelease(this, false);
  }

  /**
   * Places the call on its nodes before its chain decides it.
   *
   * @param contextNode the resource's node for the call's context
   * @param measured whether the context node counts the call
   * @param origins the resource's node for the call's origin, or null
   */
  void place(DefaultNode contextNode, boolean measured, @Nullable StatisticNode origins) {
    node = contextNode;
    onContextNode = measured;
    originNode = origins;
  }

  /**
   * Exits this entry only if it is still in the given use.
   *
   * @param use the generation the caller entered with
   */
  public void close(long use) {
    if (generation == use) {
      path.exit(this, null, null);
    }
  }

  /**
   * Exits this entry only if it is still in the given use, with what the call's body threw.
   *
   * @param use the generation the caller entered with
   * @param failure what the body threw, or null
   * @param errorFilter which failures count as errors; null: all of them
   */
  public void close(long use, @Nullable Throwable failure,
      @Nullable Predicate<? super Throwable> errorFilter) {
    if (generation == use) {
      path.exit(this, failure, errorFilter);
    }
  }

  /** Whether the pool may hand this entry out again. */
  boolean reusable() {
    return isExited();
  }

  @Override
  public String resource() {
    return resource.name();
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

  /** Notes the exit time. */
  void completedAt(long nowMs) {
    exitMs = nowMs;
  }

  /** Why the call was refused; null when it was admitted. */
  public @Nullable RefusedException refusal() {
    return refusal;
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
    path.exit(this, null, null);
  }

  @Override
  public String toString() {
    return "Entry[" + resource.name() + "]";
  }
}
