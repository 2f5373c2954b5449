package dev.guard;

import dev.guard.api.RefusedException;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The run-now forms of a {@link Guard}: each runs one function under the guard at once and
 * returns its outcome. Public through {@link Guard}, which is the only subclass (by way of {@link
 * GuardDecorators}).
 */
abstract sealed class GuardCalls permits GuardDecorators {

  GuardCalls() {}

  /** The guard bound to its engine, its rules declared there; made once per guard. */
  abstract Binding bound();

  /**
   * Runs a supplier now under this guard, recovering from a refusal or a business error like
   * {@link GuardDecorators#decorateOrRecover}.
   *
   * @param supplier the protected code
   * @param recovery computes the result of a refused or failed call from its exception
   * @param <T> the result type
   * @return the supplier's or the recovery's result
   */
  public <T extends @Nullable Object> T callOrRecover(
      Supplier<T> supplier, Function<? super RuntimeException, ? extends T> recovery) {
    Objects.requireNonNull(supplier, "supplier");
    Objects.requireNonNull(recovery, "recovery");
    Binding bound = bound();
    try {
      return bound.run(null, supplier, Supplier<T>::get, recovery);
    } catch (RuntimeException failure) {
      if (bound.recovers(failure)) {
        return recovery.apply(failure);
      }
      throw failure;
    }
  }

  /**
   * Runs a supplier now under this guard.
   *
   * @param supplier the protected code
   * @param <T> the result type
   * @return its result
   * @throws RefusedException if the call was refused
   */
  public <T extends @Nullable Object> T call(Supplier<T> supplier) {
    Objects.requireNonNull(supplier, "supplier");
    return bound().run(null, supplier, Supplier<T>::get, null);
  }

  /**
   * Runs a supplier now under this guard with {@code key} as the call's argument 0, for
   * per-value rules: the keyed form of {@link #call}.
   *
   * <pre>{@code
   * Cart cart = perUser.callWithKey(userId, () -> carts.load(userId));
   * }</pre>
   *
   * <p>A call allocates nothing, except on a guard composed with {@link Guard#andThen}, which nests its
   * parts for each call.
   *
   * @param key the value per-value rules limit on; null for none
   * @param supplier the protected code
   * @param <T> the result type
   * @return its result
   * @throws RefusedException if the call was refused
   */
  public <T extends @Nullable Object> T callWithKey(@Nullable Object key, Supplier<T> supplier) {
    Objects.requireNonNull(supplier, "supplier");
    return bound().run(key, supplier, Supplier<T>::get, null);
  }

  /**
   * Runs a runnable now under this guard.
   *
   * @param runnable the protected code
   * @throws RefusedException if the call was refused
   */
  public void run(Runnable runnable) {
    Objects.requireNonNull(runnable, "runnable");
    bound().run(null, runnable, GuardCalls::runOnce, null);
  }

  /**
   * Runs a supplier now under this guard, falling back on refusal.
   *
   * @param supplier the protected code
   * @param onRefused computes the result of a refused call from its {@link RefusedException}
   * @param <T> the result type
   * @return the supplier's or the fallback's result
   */
  public <T extends @Nullable Object> T callOrElse(
      Supplier<T> supplier, Function<? super RefusedException, ? extends T> onRefused) {
    Objects.requireNonNull(supplier, "supplier");
    Objects.requireNonNull(onRefused, "onRefused");
    return bound().run(null, supplier, Supplier<T>::get, onRefused);
  }

  /** Runs a runnable as a body; a runnable has no result, and nothing reads this one. */
  static Boolean runOnce(Runnable runnable) {
    runnable.run();
    return Boolean.TRUE;
  }

}
