package dev.guard;

import dev.guard.api.BlockedException;
import dev.guard.api.rule.Rule;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.internal.CallEntry;
import dev.guard.engine.internal.EngineCore;
import dev.guard.engine.internal.ResourceState;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A guard bound to an engine: each part's resource resolved once (so calls need no name lookup)
 * and its rules declared. Entering runs the parts in order and exits them in reverse; a refusal by
 * a later part exits the earlier ones before it propagates.
 */
final class Binding {

  final GuardEngine engine;
  private final EngineCore core;
  private final GuardPart[] parts;
  private final ResourceState[] states;

  private Binding(GuardEngine engine, List<GuardPart> parts) {
    this.engine = engine;
    this.core = EngineCore.of(engine);
    this.parts = parts.toArray(new GuardPart[0]);
    this.states = new ResourceState[this.parts.length];
    for (int i = 0; i < this.parts.length; i++) {
      GuardPart part = this.parts[i];
      List<? extends Rule> rules = part.flowRules();
      states[i] = rules.isEmpty() ? core.resolve(part.resource()) : core.load(part.resource(), rules);
    }
  }

  /** Declares the parts' rules on the engine (identical rules: no-op) and resolves resources. */
  static Binding bind(GuardEngine engine, List<GuardPart> parts) {
    return new Binding(engine, parts);
  }

  /**
   * Protected code of one of the decorators' shapes, applied to an input that the decorator passes
   * per call (the user's supplier, callable or runnable, or a function's argument), so that a call
   * allocates no wrapper: the bodies are method references made once.
   */
  @FunctionalInterface
  interface Body<I, T> {
    T run(I input) throws Exception;
  }

  /**
   * Runs a body under every part. A refusal goes to {@code onBlocked} when given (no exception is
   * thrown on that path), else it is thrown. Business exceptions pass through as the same instance.
   *
   * @param argument whether {@code input} is the call's argument (for hot-parameter rules)
   */
  <I, T> T execute(
      Body<I, T> body,
      I input,
      boolean argument,
      @Nullable Function<? super BlockedException, ? extends T> onBlocked)
      throws Exception {
    if (parts.length == 1) {
      CallEntry entry = enter(0, argument, input);
      BlockedException refused = entry.refusal();
      if (refused != null) {
        if (onBlocked == null) {
          throw refused;
        }
        return onBlocked.apply(refused);
      }
      long use = entry.generation();
      try {
        return body.run(input);
      } catch (Throwable failure) {
        entry.recordError(use, failure);
        throw failure;
      } finally {
        entry.close(use);
      }
    }
    CallEntry[] entries = new CallEntry[parts.length];
    try {
      enterAll(entries, argument ? new @Nullable Object[] {input} : null);
    } catch (BlockedException refused) {
      if (onBlocked == null) {
        throw refused;
      }
      return onBlocked.apply(refused);
    }
    try {
      return body.run(input);
    } catch (Throwable failure) {
      for (CallEntry entry : entries) {
        entry.recordError(failure);
      }
      throw failure;
    } finally {
      exitFrom(entries, entries.length - 1);
    }
  }

  /**
   * Starts an asynchronous body under every part: the entries are detached from the thread and
   * exited, in reverse order, when the body's stage completes (on whichever thread completes it).
   * A refusal, or an exception thrown by the body itself, gives a failed stage.
   */
  <T> CompletionStage<T> executeAsync(Supplier<CompletionStage<T>> body) {
    CallEntry[] entries = new CallEntry[parts.length];
    for (int i = 0; i < entries.length; i++) {
      GuardPart part = parts[i];
      try {
        entries[i] = core.enterDetached(states[i], part.type(), 1, part.prioritized(), null,
            part.entrance(), part.origin());
      } catch (BlockedException refused) {
        exitFrom(entries, i - 1);
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

  private static void finish(@Nullable CallEntry[] entries, @Nullable Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
    if (cause != null) {
      for (CallEntry entry : entries) {
        if (entry != null) {
          entry.recordError(cause);
        }
      }
    }
    exitFrom(entries, entries.length - 1);
  }

  /** Enters one part reusing this thread's entry object (no allocation in steady state). */
  private CallEntry enter(int index, boolean argument, @Nullable Object input) {
    GuardPart part = parts[index];
    return core.enterReusing(states[index], part.type(), 1, part.prioritized(), argument, input,
        part.entrance(), part.origin());
  }

  /** Enters one part of a composition with a fresh entry object. */
  private CallEntry enterFresh(int index, @Nullable Object @Nullable [] args) {
    GuardPart part = parts[index];
    return core.enter(states[index], part.type(), 1, part.prioritized(), args, part.entrance(),
        part.origin());
  }

  private void enterAll(CallEntry[] entries, @Nullable Object @Nullable [] args) {
    for (int i = 0; i < entries.length; i++) {
      try {
        entries[i] = enterFresh(i, args);
      } catch (BlockedException refused) {
        exitFrom(entries, i - 1);
        throw refused;
      }
    }
  }

  private static void exitFrom(@Nullable CallEntry[] entries, int last) {
    for (int i = last; i >= 0; i--) {
      CallEntry entry = entries[i];
      if (entry != null) {
        entry.close();
      }
    }
  }
}
