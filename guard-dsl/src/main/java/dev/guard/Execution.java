package dev.guard;

import dev.guard.api.BlockedException;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** Runs bodies that cannot throw checked exceptions (suppliers, runnables, functions). */
final class Execution {

  private Execution() {}

  static <I, T> T unchecked(Binding bound, Binding.Body<I, T> body, I input, boolean argument) {
    return unchecked(bound, body, input, argument, null);
  }

  static <I, T> T unchecked(
      Binding bound,
      Binding.Body<I, T> body,
      I input,
      boolean argument,
      @Nullable Function<? super BlockedException, ? extends T> onBlocked) {
    try {
      return bound.execute(body, input, argument, onBlocked);
    } catch (Exception failure) {
      throw Execution.<RuntimeException>rethrow(failure);
    }
  }

  /** Runs a runnable as a body (a method reference to this is one shared object). */
  static Boolean run(Runnable runnable) {
    runnable.run();
    return Boolean.TRUE; // a runnable has no result; nothing reads this one
  }

  /** Rethrows any throwable unchanged: a supplier's sneaky checked exception stays itself. */
  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E rethrow(Throwable failure) throws E {
    throw (E) failure;
  }
}
