package dev.guard;

import dev.guard.api.BlockedException;
import dev.guard.engine.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.CheckedFunction;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A guard bound to an engine: one {@link GuardedResource} handle per part, with the part's rules
 * declared. A body runs under the parts nested in order, first part outermost, so the entries exit
 * in reverse; a refusal by a later part exits the earlier ones before it propagates. The nesting
 * is built once per decorator, so a call allocates nothing.
 */
final class Binding {

  final GuardEngine engine;
  private final GuardedResource[] resources;
  private final ErrorTracing[] tracings;

  private Binding(GuardEngine engine, List<GuardPart> parts) {
    this.engine = engine;
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
  }

  /** Declares the parts' rules on the engine (identical rules: no-op) and resolves resources. */
  static Binding bind(GuardEngine engine, List<GuardPart> parts) {
    return new Binding(engine, parts);
  }

  /**
   * Tells whether a recovering decorator hands an exception to its recovery function: a refusal,
   * or an exception that counts as a business error for at least one part.
   */
  boolean recovers(RuntimeException failure) {
    if (failure instanceof BlockedException) {
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
   * Nests a body under every part. A refusal throws its {@link BlockedException}, or, when
   * {@code onBlocked} is given, returns its result (no exception is thrown on that path).
   *
   * @param argument whether the body's input is the call's argument (for hot-parameter rules)
   */
  <I extends @Nullable Object, T extends @Nullable Object> Function<I, T> wrap(
      Function<I, T> body,
      boolean argument,
      @Nullable Function<? super BlockedException, ? extends T> onBlocked) {
    Function<I, T> nested = body;
    for (int i = resources.length - 1; i >= 0; i--) {
      nested = around(resources[i], nested, argument, onBlocked);
    }
    return nested;
  }

  /** Nests a body that may throw checked exceptions under every part; refusals throw. */
  <I extends @Nullable Object, T extends @Nullable Object> CheckedFunction<I, T> wrapChecked(
      CheckedFunction<I, T> body) {
    CheckedFunction<I, T> nested = body;
    for (int i = resources.length - 1; i >= 0; i--) {
      GuardedResource resource = resources[i];
      CheckedFunction<I, T> inner = nested;
      nested = input -> resource.callChecked(input, inner);
    }
    return nested;
  }

  /**
   * Runs a body now under every part (no argument); like {@code wrap(body, false, onBlocked)
   * .apply(input)}, without building the nesting when there is one part.
   */
  <I extends @Nullable Object, T extends @Nullable Object> T run(
      I input, Function<I, T> body, @Nullable Function<? super BlockedException, ? extends T> onBlocked) {
    if (resources.length > 1) {
      return wrap(body, false, onBlocked).apply(input);
    }
    return onBlocked == null
        ? resources[0].call(input, body)
        : resources[0].callOrElse(null, input, body, onBlocked);
  }

  private static <I extends @Nullable Object, T extends @Nullable Object> Function<I, T> around(
      GuardedResource resource,
      Function<I, T> inner,
      boolean argument,
      @Nullable Function<? super BlockedException, ? extends T> onBlocked) {
    if (onBlocked != null) {
      return argument
          ? input -> resource.callOrElse(input, input, inner, onBlocked)
          : input -> resource.callOrElse(null, input, inner, onBlocked);
    }
    return argument
        ? input -> resource.callWith(input, input, inner)
        : input -> resource.call(input, inner);
  }

  /**
   * Starts an asynchronous body under every part: the entries are detached from the thread and
   * exited, in reverse order, when the body's stage completes (on whichever thread completes it).
   * A refusal, or an exception thrown by the body itself, gives a failed stage.
   */
  <T extends @Nullable Object> CompletionStage<T> executeAsync(
      Supplier<? extends CompletionStage<T>> body) {
    Entry[] entries = new Entry[resources.length];
    for (int i = 0; i < entries.length; i++) {
      try {
        entries[i] = resources[i].enterAsync();
      } catch (BlockedException refused) {
        finish(entries, null);
        return CompletableFuture.failedFuture(refused);
      }
    }
    CompletionStage<T> stage;
    try {
      stage = Objects.requireNonNull(body.get(), "the decorated supplier returned a null stage");
    } catch (RuntimeException | Error failure) {
      finish(entries, failure);
      return CompletableFuture.failedFuture(failure);
    }
    return stage.whenComplete((value, failure) -> finish(entries, failure));
  }

  private void finish(@Nullable Entry[] entries, @Nullable Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
    for (int i = entries.length - 1; i >= 0; i--) {
      Entry entry = entries[i];
      if (entry != null) {
        if (cause != null && tracings[i].isError(cause)) {
          entry.recordError(cause);
        }
        entry.close();
      }
    }
  }
}
