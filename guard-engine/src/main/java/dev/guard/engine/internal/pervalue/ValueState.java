package dev.guard.engine.internal.pervalue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The state of one value of one per-value rule: one 64-bit word changed by compare-and-set
 * (its meaning belongs to the rule's {@link ValueGate}) and the value's threshold, fixed when the
 * value is first seen (the rule's count, or the value's exception threshold).
 */
final class ValueState {

  private static final VarHandle BITS;

  static {
    try {
      BITS = MethodHandles.lookup().findVarHandle(ValueState.class, "bits", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final int threshold;
  @SuppressWarnings("unused") // accessed through BITS
  private volatile long bits;

  ValueState(int threshold, long bits) {
    this.threshold = threshold;
    this.bits = bits;
  }

  long bits() {
    return (long) BITS.getVolatile(this);
  }

  boolean compareAndSet(long expected, long next) {
    return BITS.compareAndSet(this, expected, next);
  }
}
