package dev.guard.engine.internal.chain;

import dev.guard.api.EntryType;
import dev.guard.engine.internal.node.DefaultNode;
import dev.guard.engine.internal.stat.StatisticNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One call as the slots of its chain see it: what they read to decide it (permits, arguments,
 * origin, context, nodes, decision time), what they keep for its exit (grants) and how it ended
 * (exit time, error). The call path's entry extends it; every method here is final, so a slot
 * reading a call costs what reading a field costs.
 */
public abstract class Call {

  private static final Object[] NO_ARGS = new Object[0];

  /** Which use of this call object this is (entries are reused). */
  protected long generation;
  /** The direction of the call. */
  protected EntryType type;
  /** The permits the call asks for. */
  protected int count;
  /** Whether the call may borrow from a future window. */
  protected boolean prioritized;
  /** The call's arguments; may contain nulls. */
  protected @Nullable Object[] args = NO_ARGS;
  /** The caller's origin; empty when unknown. */
  protected String origin = "";
  /** The name of the context (entrance) the call runs in. */
  protected String entrance = "";
  /** The resource's node for the call's context; null until placed. */
  protected @Nullable DefaultNode node;
  /** The resource's node for the call's origin; null when none. */
  protected @Nullable StatisticNode originNode;
  /** When the call was created, in engine milliseconds. */
  protected long createMs;
  /** When the call exited, in engine milliseconds; its creation time before exit. */
  protected long exitMs;
  /** The traced business error, if any. */
  protected @Nullable Throwable error;
  private long nowNanos;
  private boolean borrowed;
  private int grantCursor;
  private int keptBits; // bit i: slot i kept grant bits in this use
  private int keptGrants; // bit i: slot i kept a grant object in this use
  private long @Nullable [] grantBits; // per slot position: what the slot granted this call
  private @Nullable Object @Nullable [] grants;

  /**
   * Creates a call of the given direction.
   *
   * @param type the direction
   */
  protected Call(EntryType type) {
    this.type = type;
  }

  /**
   * Starts a new use of this call object: a new generation, the decision time, no grants.
   *
   * @param nowNanos the decision time in engine nanoseconds
   * @param newArgs the arguments, or null for none
   */
  protected final void begin(long nowNanos, @Nullable Object @Nullable [] newArgs) {
    generation++;
    args = newArgs == null ? NO_ARGS : newArgs;
    node = null;
    originNode = null;
    this.nowNanos = nowNanos;
    createMs = nowNanos / 1_000_000L;
    exitMs = createMs;
    borrowed = false;
    error = null;
    keptBits = 0; // a slot whose enter did not run must not read another use's grants
    if (keptGrants != 0) {
      dropGrants();
    }
  }

  private void dropGrants() {
    @Nullable Object[] held = grants;
    if (held != null) {
      for (int kept = keptGrants; kept != 0; kept &= kept - 1) {
        held[Integer.numberOfTrailingZeros(kept)] = null;
      }
    }
    keptGrants = 0;
  }

  /** Which use of this call object this is; a holder of an older use must not touch it. */
  public final long generation() {
    return generation;
  }

  /** The direction of this call. */
  public final EntryType type() {
    return type;
  }

  /** The permits this call asks for. */
  public final int count() {
    return count;
  }

  /** Whether this call may borrow from a future window. */
  public final boolean prioritized() {
    return prioritized;
  }

  /** The call's arguments (for per-value rules); may contain nulls. */
  public final @Nullable Object[] args() {
    return args;
  }

  /** The caller's origin; empty when unknown. */
  public final String origin() {
    return origin;
  }

  /** The name of the context (entrance) the call runs in. */
  public final String entrance() {
    return entrance;
  }

  /** This resource's node for the call's context; null for untracked resources. */
  public final @Nullable DefaultNode node() {
    return node;
  }

  /** The origin node of this resource for the call's origin; null when none. */
  public final @Nullable StatisticNode originNode() {
    return originNode;
  }

  /** The decision time in engine nanoseconds (advanced by waits). */
  public final long nowNanos() {
    return nowNanos;
  }

  /** The decision time in engine milliseconds. */
  public final long nowMs() {
    return nowNanos / 1_000_000L;
  }

  /**
   * Notes that the call waited; later decisions happen that much later.
   *
   * @param nanos the wait
   */
  public final void waited(long nanos) {
    nowNanos += nanos;
  }

  /** Notes that the call was admitted on a pass borrowed from a future bucket. */
  public final void markBorrowed() {
    borrowed = true;
  }

  /** Whether the call was admitted on a borrowed pass (counted in the future bucket already). */
  public final boolean borrowed() {
    return borrowed;
  }

  /**
   * Points the grant accessors at the slot in this chain position (the chain does this).
   *
   * @param slot the slot's position in the chain
   */
  public final void grantCursor(int slot) {
    grantCursor = slot;
  }

  /**
   * Remembers bits of what the current slot granted this call, for its {@code abandon} hook.
   *
   * @param bits the slot's own encoding
   */
  public final void keepGrantBits(long bits) {
    long[] kept = grantBits;
    if (kept == null) {
      kept = new long[Chain.MAX_SLOTS];
      grantBits = kept;
    }
    kept[grantCursor] = bits;
    keptBits |= 1 << grantCursor;
  }

  /** The bits the current slot kept with {@link #keepGrantBits} in this use; 0 if none. */
  public final long grantBits() {
    long[] kept = grantBits;
    return kept == null || (keptBits & (1 << grantCursor)) == 0 ? 0L : kept[grantCursor];
  }

  /**
   * Remembers an object describing what the current slot granted this call (a reservation), for
   * its {@code abandon} or {@code exit} hook. Dropped when the call object is reused.
   *
   * @param grant the slot's own record, or null
   */
  public final void keepGrant(@Nullable Object grant) {
    int bit = 1 << grantCursor;
    if (grant == null) {
      if ((keptGrants & bit) != 0) { // a slot that kept a grant earlier in this use drops it
        keptGrants &= ~bit;
        Objects.requireNonNull(grants)[grantCursor] = null;
      }
      return;
    }
    @Nullable Object[] kept = grants;
    if (kept == null) {
      kept = new Object[Chain.MAX_SLOTS];
      grants = kept;
    }
    kept[grantCursor] = grant;
    keptGrants |= bit;
  }

  /** The object the current slot kept with {@link #keepGrant} in this use; null if none. */
  public final @Nullable Object grant() {
    @Nullable Object[] kept = grants;
    return kept == null || (keptGrants & (1 << grantCursor)) == 0 ? null : kept[grantCursor];
  }

  /** The response time of an exited call in milliseconds, waits included; 0 before exit. */
  public final long rtMs() {
    return Math.max(0L, exitMs - createMs);
  }

  /** When the call exited, in engine milliseconds; its creation time before exit. */
  public final long exitMs() {
    return exitMs;
  }

  /** The traced business error, if any. */
  public final @Nullable Throwable error() {
    return error;
  }
}
