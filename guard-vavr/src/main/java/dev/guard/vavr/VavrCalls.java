package dev.guard.vavr;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import io.vavr.control.Either;
import io.vavr.control.Try;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Runs a guard's calls and answers with vavr values instead of exceptions.
 *
 * <pre>{@code
 * Try<Order> order = VavrCalls.tryCall(guard, () -> orders.create(request));
 * Either<RefusedException, Quote> quote = VavrCalls.tryEither(guard, quotes::latest);
 * }</pre>
 *
 * <p>Each call is exactly {@link Guard#call}: the same admission, statistics and failure rules;
 * only the way the outcome reaches the caller differs.
 */
public final class VavrCalls {

  private VavrCalls() {}

  /**
   * Runs a supplier now through the guard and captures the outcome: a success, the {@link
   * RefusedException} of a refusal, or the code's own exception.
   *
   * @param guard the guard
   * @param supplier the protected code
   * @param <T> the result type
   * @return the outcome
   */
  public static <T extends @Nullable Object> Try<T> tryCall(Guard guard, Supplier<T> supplier) {
    Objects.requireNonNull(guard, "guard");
    Objects.requireNonNull(supplier, "supplier");
    return Try.of(() -> guard.call(supplier));
  }

  /**
   * Runs a supplier now through the guard: a refusal becomes a left value, a result a right value;
   * the code's own exceptions propagate unchanged.
   *
   * @param guard the guard
   * @param supplier the protected code
   * @param <T> the result type
   * @return the refusal or the result
   */
  public static <T extends @Nullable Object> Either<RefusedException, T> tryEither(
      Guard guard, Supplier<T> supplier) {
    Objects.requireNonNull(guard, "guard");
    Objects.requireNonNull(supplier, "supplier");
    try {
      return Either.right(guard.call(supplier));
    } catch (RefusedException refused) {
      return Either.left(refused);
    }
  }
}
