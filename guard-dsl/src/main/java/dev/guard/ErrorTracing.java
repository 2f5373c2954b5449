package dev.guard;

import dev.guard.api.RefusedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Which exceptions and results of a guard's code count as failed calls. A predicate, when set, alone
 * decides; otherwise an exception of an ignored type (or a subtype) does not count, the ignored
 * list winning over the recorded list; otherwise, when types to record are listed, only those
 * count; otherwise every exception counts. A {@link RefusedException} never counts; a predicate
 * that throws counts the exception. A result counts as a failure only when the result predicate
 * is set and accepts it (or throws).
 *
 * @param predicate decides alone when set
 * @param recorded the types that count, when listed
 * @param ignored the types that never count
 * @param failsWhen judges results when set
 */
record ErrorTracing(
    @Nullable Predicate<? super Throwable> predicate,
    List<Class<? extends Throwable>> recorded,
    List<Class<? extends Throwable>> ignored,
    @Nullable Predicate<? super @Nullable Object> failsWhen) {

  static final ErrorTracing ALL = new ErrorTracing(null, List.of(), List.of(), null);

  ErrorTracing {
    recorded = List.copyOf(recorded);
    ignored = List.copyOf(ignored);
  }

  ErrorTracing withPredicate(Predicate<? super Throwable> isError) {
    if (predicate != null) {
      throw new IllegalStateException("recordExceptionsIf is already set to " + predicate
          + "; combine the conditions in one predicate");
    }
    return new ErrorTracing(isError, recorded, ignored, failsWhen);
  }

  ErrorTracing withRecorded(String step, Class<? extends Throwable>[] types) {
    return new ErrorTracing(predicate, plus(recorded, step, types), ignored, failsWhen);
  }

  ErrorTracing withIgnored(String step, Class<? extends Throwable>[] types) {
    return new ErrorTracing(predicate, recorded, plus(ignored, step, types), failsWhen);
  }

  ErrorTracing withFailsWhen(Predicate<? super @Nullable Object> isFailure) {
    if (failsWhen != null) {
      throw new IllegalStateException("failsWhen is already set to " + failsWhen
          + "; combine the conditions in one predicate");
    }
    return new ErrorTracing(predicate, recorded, ignored, isFailure);
  }

  private static List<Class<? extends Throwable>> plus(
      List<Class<? extends Throwable>> listed, String step, Class<? extends Throwable>[] types) {
    Objects.requireNonNull(types, step);
    List<Class<? extends Throwable>> more = new ArrayList<>(listed);
    for (int i = 0; i < types.length; i++) {
      more.add(Objects.requireNonNull(types[i], step + "[" + i + "]"));
    }
    return more;
  }

  /** Whether the exceptions are chosen at all; when not, every exception counts. */
  boolean everyException() {
    return predicate == null && recorded.isEmpty() && ignored.isEmpty();
  }

  /**
   * Tells whether an exception counts as a business error.
   *
   * @param failure what the code threw
   * @return whether it counts
   */
  boolean isError(Throwable failure) {
    if (failure instanceof RefusedException) {
      return false;
    }
    Predicate<? super Throwable> decides = predicate;
    if (decides != null) {
      try {
        return decides.test(failure);
      } catch (RuntimeException broken) {
        return true; // a predicate that fails cannot vouch for the exception
      }
    }
    for (Class<? extends Throwable> type : ignored) {
      if (type.isInstance(failure)) {
        return false;
      }
    }
    if (recorded.isEmpty()) {
      return true;
    }
    for (Class<? extends Throwable> type : recorded) {
      if (type.isInstance(failure)) {
        return true;
      }
    }
    return false;
  }

  /** Whether results are judged at all. */
  boolean judgesResults() {
    return failsWhen != null;
  }

  /**
   * Tells whether a result counts as a failed call.
   *
   * @param result what the code returned
   * @return whether it counts
   */
  boolean isFailedResult(@Nullable Object result) {
    Predicate<? super @Nullable Object> judge = failsWhen;
    if (judge == null) {
      return false;
    }
    try {
      return judge.test(result);
    } catch (RuntimeException broken) {
      return true; // a predicate that fails cannot vouch for the result
    }
  }
}
