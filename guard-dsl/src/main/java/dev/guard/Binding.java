package dev.guard;

import dev.guard.api.RefusedException;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.CheckedFunction;
import java.util.List;
import java.util.Objects;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A guard bound to an engine: one {@link GuardedResource} handle per part, with the part's rules
 * declared. A body runs under the parts nested in order, first part outermost, so the entries exit
 * in reverse; a refusal by a later part exits the earlier ones before it propagates. The nesting
 * is built once per decorator, so a call allocates nothing. When a part judges results ({@code
 * failsWhen}), or the body records failures itself, the parts are entered through {@link
 * EnteredCall} instead, which allocates its entries per call.
 */
final class Binding {

  final GuardEngine engine;
  private final GuardedResource[] resources;
  private final ErrorTracing[] tracings;
  private final boolean judged;
  private final DetachedBinding detached;
  /** The shortest timeout of the parts, or null for none. */
  private final @Nullable Duration timeout;

  private Binding(GuardEngine engine, List<GuardPart> parts) {
    this.engine = engine;
    Duration shortest = null;
    for (GuardPart part : parts) {
      Duration own = part.timeout();
      if (own != null && (shortest == null || own.compareTo(shortest) < 0)) {
        shortest = own;
      }
    }
    this.timeout = shortest;
    this.resources = new GuardedResource[parts.size()];
    this.tracings = new ErrorTracing[parts.size()];
    for (int i = 0; i < resources.length; i++) {
      GuardPart part = parts.get(i);
      tracings[i] = part.tracing();
      GuardedResource handle = engine.resource(part.resource()).entryType(part.type());
      if (!part.tracing().everyException()) {
        handle = handle.recordExceptionsIf(part.tracing()::isError);
      }
      if (part.entrance() != null) {
        handle = handle.context(part.entrance(), part.origin());
      } else if (!part.origin().isEmpty()) {
        handle = handle.origin(part.origin());
      }
      if (part.prioritized()) {
        handle = handle.prioritized();
      }
      if (!part.rules().isEmpty()) {
        handle.declare(part.rules());
      }
      resources[i] = handle;
    }
    boolean anyJudges = false;
    for (ErrorTracing tracing : tracings) {
      anyJudges |= tracing.judgesResults();
    }
    this.judged = anyJudges;
    boolean anyPrioritized = false;
    for (GuardPart part : parts) {
      anyPrioritized |= part.prioritized();
    }
    this.detached = new DetachedBinding(engine, resources, tracings, anyPrioritized, shortest);
  }

  /** The shortest timeout of the parts, or null. */
  @Nullable Duration timeout() {
    return timeout;
  }

  /** Refuses a synchronous call of a guard with a timeout: see {@link Guard#timeout}. */
  private void synchronous() {
    Duration limit = timeout;
    if (limit != null) {
      throw new IllegalStateException("timeout(" + limit + ") bounds asynchronous calls only"
          + " (decorateCompletionStage, guard-reactor): a synchronous call cannot be stopped from"
          + " outside its thread; give the client it calls a timeout of its own");
    }
  }

  /** The parts' calls for asynchronous adapters, entered and ended by the adapter. */
  DetachedBinding detached() {
    return detached;
  }

  private static final @Nullable Object[] NO_ARGUMENTS = {};

  /** Declares the parts' rules on the engine (identical rules: no-op) and resolves resources. */
  static Binding bind(GuardEngine engine, List<GuardPart> parts) {
    return new Binding(engine, parts);
  }

  /** The key of a function whose argument itself is the limited value. */
  static final Function<Object, Object> WHOLE_INPUT = input -> input;

  /**
   * Tells whether a recovering decorator hands an exception to its recovery function: a refusal,
   * or an exception that counts as a business error for at least one part.
   */
  boolean recovers(RuntimeException failure) {
    if (failure instanceof RefusedException) {
      return true;
    }
    for (ErrorTracing tracing : tracings) {
      if (tracing.isError(failure)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Nests a body under every part. A refusal throws its {@link RefusedException}, or, when
   * {@code onRefused} is given, returns its result (no exception is thrown on that path).
   *
   * @param keyOf computes the call's one argument (for per-value rules) from the body's input;
   *     {@link #WHOLE_INPUT} for the input itself, null for a call without arguments
   */
  <I extends @Nullable Object, T extends @Nullable Object> Function<I, T> wrap(
      Function<I, T> body,
      @Nullable Function<? super I, ?> keyOf,
      @Nullable Function<? super RefusedException, ? extends T> onRefused) {
    synchronous();
    if (judged) {
      return input -> runEntered(argumentsOf(input, keyOf), onRefused, call -> body.apply(input));
    }
    Function<I, T> nested = body;
    for (int i = resources.length - 1; i >= 0; i--) {
      nested = around(resources[i], nested, keyOf, onRefused);
    }
    return nested;
  }

  /** Nests a body that may throw checked exceptions under every part; refusals throw. */
  <I extends @Nullable Object, T extends @Nullable Object> CheckedFunction<I, T> wrapChecked(
      CheckedFunction<I, T> body) {
    synchronous();
    if (judged) {
      return input -> runEnteredChecked(NO_ARGUMENTS, null, call -> body.apply(input));
    }
    CheckedFunction<I, T> nested = body;
    for (int i = resources.length - 1; i >= 0; i--) {
      GuardedResource resource = resources[i];
      CheckedFunction<I, T> inner = nested;
      nested = input -> resource.callChecked(input, inner);
    }
    return nested;
  }

  /**
   * Runs a body now under every part, with {@code argument} as the call's one argument (null for
   * none); like {@code wrap(body, ..., onRefused).apply(input)}, without building the nesting
   * when there is one part. A composed guard with an argument builds its nesting per call.
   */
  <I extends @Nullable Object, T extends @Nullable Object> T run(
      @Nullable Object argument, I input, Function<I, T> body,
      @Nullable Function<? super RefusedException, ? extends T> onRefused) {
    synchronous();
    if (judged) {
      @Nullable Object[] args = argument == null ? NO_ARGUMENTS : new @Nullable Object[] {argument};
      return runEntered(args, onRefused, call -> body.apply(input));
    }
    if (resources.length > 1) {
      return wrap(body, argument == null ? null : ignored -> argument, onRefused).apply(input);
    }
    if (onRefused != null) {
      return resources[0].callOrElse(argument, input, body, onRefused);
    }
    return argument == null
        ? resources[0].call(input, body)
        : resources[0].callOrElse(argument, input, body, Binding::rethrow);
  }

  /** The fallback of a call with an argument that throws its refusal: non-capturing, so shared. */
  private static <T extends @Nullable Object> T rethrow(RefusedException refused) {
    throw refused;
  }

  /** Nests a two-input body under every part; the inputs are the calls' arguments 0 and 1. */
  <A extends @Nullable Object, B extends @Nullable Object, T extends @Nullable Object>
      BiFunction<A, B, T> wrapPair(BiFunction<A, B, T> body) {
    synchronous();
    if (judged) {
      return (first, second) -> runEntered(
          new @Nullable Object[] {first, second}, null, call -> body.apply(first, second));
    }
    BiFunction<A, B, T> nested = body;
    for (int i = resources.length - 1; i >= 0; i--) {
      GuardedResource resource = resources[i];
      BiFunction<A, B, T> inner = nested;
      nested = (first, second) -> resource.callWithArguments(first, second, inner);
    }
    return nested;
  }

  /** Runs a body that receives its call, through entries: see {@code Guard.decorateWithCall}. */
  <T extends @Nullable Object> T runWithCall(Function<? super Guard.Call, ? extends T> body) {
    synchronous();
    return runEntered(NO_ARGUMENTS, null, body::apply);
  }

  private static <I extends @Nullable Object> @Nullable Object[] argumentsOf(
      I input, @Nullable Function<? super I, ?> keyOf) {
    return keyOf == null ? NO_ARGUMENTS : new @Nullable Object[] {keyOf.apply(input)};
  }

  /** {@link #runEnteredChecked} for bodies that throw no checked exception of their own. */
  private <T extends @Nullable Object> T runEntered(
      @Nullable Object[] args,
      @Nullable Function<? super RefusedException, ? extends T> onRefused,
      CheckedFunction<Guard.Call, T> body) {
    try {
      return runEnteredChecked(args, onRefused, body);
    } catch (RuntimeException | Error failure) {
      throw failure;
    } catch (Exception undeclared) { // thrown by code compiled without checked exceptions (Kotlin)
      throw Binding.<RuntimeException>passThrough(undeclared);
    }
  }

  /**
   * Enters every part through {@link EnteredCall}, runs the body with the call, and exits with
   * its outcome: an exception counts where the parts' tracings say so, a result where their
   * result predicates judge it failed. A refusal throws, or returns {@code onRefused}'s result.
   */
  private <T extends @Nullable Object> T runEnteredChecked(
      @Nullable Object[] args,
      @Nullable Function<? super RefusedException, ? extends T> onRefused,
      CheckedFunction<Guard.Call, T> body) throws Exception {
    EnteredCall call;
    try {
      call = EnteredCall.enter(resources, tracings, args);
    } catch (RefusedException refused) {
      if (onRefused == null) {
        throw refused;
      }
      return onRefused.apply(refused);
    }
    T result;
    try {
      result = body.apply(call);
    } catch (Throwable failure) {
      call.exitThrown(failure);
      throw failure;
    }
    call.exitReturned(result);
    return result;
  }

  /** Rethrows any throwable unchanged, without declaring it. */
  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E passThrough(Throwable failure) throws E {
    throw (E) failure;
  }

  @SuppressWarnings("unchecked") // WHOLE_INPUT returns its input whatever its type
  private static <I extends @Nullable Object, T extends @Nullable Object> Function<I, T> around(
      GuardedResource resource,
      Function<I, T> inner,
      @Nullable Function<? super I, ?> keyOf,
      @Nullable Function<? super RefusedException, ? extends T> onRefused) {
    if (onRefused != null) {
      if (keyOf == null) {
        return input -> resource.callOrElse(null, input, inner, onRefused);
      }
      return keyOf == (Function<?, ?>) WHOLE_INPUT
          ? input -> resource.callOrElse(input, input, inner, onRefused)
          : input -> resource.callOrElse(keyOf.apply(input), input, inner, onRefused);
    }
    if (keyOf == null) {
      return input -> resource.call(input, inner);
    }
    return keyOf == (Function<?, ?>) WHOLE_INPUT
        ? input -> resource.callOrElse(input, input, inner, Binding::rethrow)
        : input -> resource.callOrElse(keyOf.apply(input), input, inner, Binding::rethrow);
  }

  /**
   * Starts an asynchronous body under every part: the entries are detached from the thread and
   * exited, in reverse order, when the call ends ({@link AsyncCall}: the body's stage completes,
   * the timeout comes due or the caller completes the returned stage, whichever comes first). A
   * refusal, or an exception thrown by the body itself, gives a failed stage.
   */
  <T extends @Nullable Object> CompletionStage<T> executeAsync(
      Supplier<? extends CompletionStage<T>> body) {
    Entry[] entries = new Entry[resources.length];
    for (int i = 0; i < entries.length; i++) {
      try {
        entries[i] = resources[i].enterAsync();
      } catch (RefusedException refused) {
        finish(entries, null, null, false);
        return CompletableFuture.failedFuture(refused);
      }
    }
    CompletionStage<T> stage;
    try {
      stage = Objects.requireNonNull(body.get(), "the decorated supplier returned a null stage");
    } catch (RuntimeException | Error failure) {
      finish(entries, failure, null, false);
      return CompletableFuture.failedFuture(failure);
    }
    return AsyncCall.watch(this, entries, stage, timeout);
  }

  /**
   * Exits the entries entered so far, in reverse: a failure counts where the parts' tracings say
   * so; a value the stage {@code returned} counts as failed where the parts' result predicates
   * judge it so.
   */
  void finish(@Nullable Entry[] entries, @Nullable Throwable failure,
      @Nullable Object value, boolean returned) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
    for (int i = entries.length - 1; i >= 0; i--) {
      Entry entry = entries[i];
      if (entry != null) {
        if (cause != null && tracings[i].isError(cause)) {
          entry.recordError(cause);
        } else if (returned && tracings[i].isFailedResult(value)) {
          entry.recordError(FailedResult.INSTANCE);
        }
        entry.close();
      }
    }
  }
}
