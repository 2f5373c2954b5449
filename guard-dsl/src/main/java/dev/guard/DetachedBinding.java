package dev.guard;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.internal.DetachedCalls;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * A binding's calls for asynchronous adapters ({@link DetachedCalls}): the parts are entered with
 * detached entries, in order, and exited in reverse when the adapter ends the call, each failure
 * recorded where the part's tracing counts it and each judged result where its {@code failsWhen}
 * accepts it.
 */
final class DetachedBinding implements DetachedCalls {

  private final GuardEngine engine;
  private final GuardedResource[] resources;
  private final ErrorTracing[] tracings;
  private final boolean prioritized;
  private final boolean judged;
  private final @Nullable Duration timeout;

  DetachedBinding(GuardEngine engine, GuardedResource[] resources, ErrorTracing[] tracings,
      boolean prioritized, @Nullable Duration timeout) {
    this.timeout = timeout;
    this.engine = engine;
    this.resources = resources;
    this.tracings = tracings;
    this.prioritized = prioritized;
    boolean anyJudges = false;
    for (ErrorTracing tracing : tracings) {
      anyJudges |= tracing.judgesResults();
    }
    this.judged = anyJudges;
  }

  @Override
  public Detached enter(@Nullable Object[] args) {
    Entry[] entries = new Entry[resources.length];
    for (int i = 0; i < entries.length; i++) {
      try {
        entries[i] = resources[i].enterAsync(args);
      } catch (RefusedException refused) {
        for (int j = i - 1; j >= 0; j--) {
          entries[j].close();
        }
        throw refused;
      }
    }
    return new Call(entries);
  }

  @Override
  public @Nullable Duration timeout() {
    return timeout;
  }

  @Override
  public boolean mayWait() {
    if (prioritized) {
      return true;
    }
    for (GuardedResource resource : resources) {
      for (Rule rule : engine.rules(resource.name())) {
        if (rule instanceof FlowRule flow && flow.shaping() == FlowRule.Shaping.PACING
            || rule instanceof PerValueRule perValue && perValue.shaping() == FlowRule.Shaping.PACING) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public boolean judgesResults() {
    return judged;
  }

  /** One admitted call: its entries and, per part, whether a judged result failed. */
  private final class Call implements Detached {

    private final Entry[] entries;
    private final boolean[] failedResult;

    Call(Entry[] entries) {
      this.entries = entries;
      this.failedResult = new boolean[entries.length];
    }

    @Override
    public void judge(@Nullable Object result) {
      for (int i = 0; i < entries.length; i++) {
        if (!failedResult[i] && tracings[i].isFailedResult(result)) {
          failedResult[i] = true;
        }
      }
    }

    @Override
    public void end(@Nullable Throwable failure) {
      boolean late = timeout != null && failure instanceof TimeoutException;
      for (int i = entries.length - 1; i >= 0; i--) {
        Entry entry = entries[i];
        if (failure != null && (late || tracings[i].isError(failure))) {
          entry.recordError(failure);
        } else if (failure == null && failedResult[i]) {
          entry.recordError(FailedResult.INSTANCE);
        }
        entry.close();
      }
    }

    @Override
    public String toString() {
      return "DetachedCall" + java.util.Arrays.toString(entries);
    }
  }
}
