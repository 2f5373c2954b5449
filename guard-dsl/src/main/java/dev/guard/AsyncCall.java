package dev.guard;

import dev.guard.api.Entry;
import dev.guard.spi.TimeSource;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * One admitted asynchronous call of a guard ({@link Guard#decorateCompletionStage}), from its
 * entries until it ends. Three things may end it, and the first one does, once (a
 * compare-and-set decides a race):
 *
 * <ul>
 *   <li>the supplier's stage completes: the call exits with that outcome, then the returned stage
 *       completes with it;
 *   <li>the guard's timeout comes due: the call exits failed with a {@link TimeoutException}, then
 *       the returned stage fails with it;
 *   <li>the caller completes the returned stage first, most often by cancelling it ({@code
 *       cancel}, {@code orTimeout}, a web framework's clean-up): the call exits at that moment and
 *       counts as a call without error (the caller gave up on it; nothing failed), as a cancelled
 *       subscription does in guard-reactor.
 * </ul>
 *
 * <p>The watcher on the supplier's stage is registered on that stage itself, never through the
 * stage the caller holds, so nothing the caller does to the returned stage can keep the call from
 * ending. The supplier's stage is never cancelled by guard: it may be shared with other callers.
 *
 * @param <T> the result type
 */
final class AsyncCall<T extends @Nullable Object> {

  private final Binding binding;
  private final Entry[] entries;
  private final CompletableFuture<T> result = new CompletableFuture<>();
  private final AtomicBoolean ended = new AtomicBoolean();
  private Deadlines.@Nullable Deadline deadline;

  private AsyncCall(Binding binding, Entry[] entries) {
    this.binding = binding;
    this.entries = entries;
  }

  /**
   * Watches an admitted call's stage and returns the stage the caller gets.
   *
   * @param binding the guard's binding, which judges outcomes and exits the entries
   * @param entries the call's entries, one per part, all admitted
   * @param stage the supplier's stage
   * @param timeout the guard's timeout, or null for none
   * @return the caller's stage
   */
  @SuppressWarnings("FutureReturnValueIgnored") // the watchers' own stages are nobody's
  static <T extends @Nullable Object> CompletionStage<T> watch(Binding binding, Entry[] entries,
      CompletionStage<T> stage, @Nullable Duration timeout) {
    AsyncCall<T> call = new AsyncCall<>(binding, entries);
    if (timeout != null) {
      TimeSource clock = binding.engine.clock();
      call.deadline = Deadlines.SHARED.add(
          clock, clock.nanoTime() + timeout.toNanos(), () -> call.expire(timeout));
    }
    stage.whenComplete(call::completed);
    call.result.whenComplete(call::answered);
    return call.result;
  }

  private boolean end() {
    if (!ended.compareAndSet(false, true)) {
      return false;
    }
    Deadlines.Deadline due = deadline;
    if (due != null) {
      due.cancel();
    }
    return true;
  }

  private void completed(@Nullable T value, @Nullable Throwable failure) {
    try {
      if (end()) {
        binding.finish(entries, failure, value, failure == null);
      }
    } finally { // whatever the exit met, the caller gets the outcome
      if (failure != null) {
        result.completeExceptionally(failure);
      } else {
        result.complete(value);
      }
    }
  }

  private void expire(Duration timeout) {
    if (ended.compareAndSet(false, true)) {
      TimeoutException late =
          new TimeoutException("the call did not complete within its timeout of " + timeout);
      for (int i = entries.length - 1; i >= 0; i--) {
        entries[i].recordError(late);
        entries[i].close();
      }
      // completed elsewhere, so that the caller's dependent actions never hold the deadline thread
      ForkJoinPool.commonPool().execute(() -> result.completeExceptionally(late));
    }
  }

  /** The caller's stage completed: when guard did not complete it, the caller ended the call. */
  private void answered(@Nullable T value, @Nullable Throwable failure) {
    if (end()) {
      binding.finish(entries, null, null, false);
    }
  }
}
