package dev.guard;

import dev.guard.api.BlockedException;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** Runs bodies that cannot throw checked exceptions (suppliers, runnables, functions). */
final class Execution {

  private Execution() {}

  static <T> T unchecked(Binding bound, Callable<T> body, @Nullable Object @Nullable [] args) {
    return unchecked(bound, body, args, null);
  }

  static <T> T unchecked(
      Binding bound,
      Callable<T> body,
      @Nullable Object @Nullable [] args,
      @Nullable Function<? super BlockedException, ? extends T> onBlocked) {
    try {
      return bound.execute(body, args, onBlocked);
    } catch (Exception failure) {
      throw Execution.<RuntimeException>rethrow(failure);
    }
  }

  /** Rethrows any throwable unchanged: a supplier's sneaky checked exception stays itself. */
  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E rethrow(Throwable failure) throws E {
    throw (E) failure;
  }
}
