package dev.guard.rules;

import dev.guard.api.internal.Threads;
import dev.guard.spi.TimeSource;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.spi.RulePart;
import dev.guard.spi.RuleSource;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;

/**
 * The life of a rule source that looks at its store every poll interval: attach once, look at
 * once, look again on a daemon thread that waits on the engine's time source ({@link
 * TimeSource#backgroundSleep}, so that a {@code ManualClock} in either mode drives it in tests
 * without the poller moving the test's time), close once and wait for the thread to end. A subclass says
 * only how to look: {@link #look(boolean)} reads the store and hands a changed set to {@link
 * #apply(RuleSet)} or the reasons it could not to {@link #report(List)}.
 *
 * <pre>{@code
 * final class TableRuleSource extends PollingRuleSource {
 *   private @Nullable String applied;
 *
 *   TableRuleSource(DataSource db) {
 *     super("table:guard_rules", Duration.ofSeconds(10));
 *     ...
 *   }
 *
 *   protected void look(boolean first) {
 *     String document = readTheRow();                // throws when the database is down
 *     if (!document.equals(applied)) {
 *       applied = document;
 *       apply(RuleFormat.parse(document, part()));         // an invalid document is reported
 *     }
 *   }
 * }
 * }</pre>
 *
 * <p>Every call of {@link #look(boolean)} holds the source's lock ({@code synchronized (this)}),
 * as may a subclass's own methods. A look that throws is reported to the engine's listeners and
 * the next poll tries again.
 */
public abstract class PollingRuleSource implements RuleSource {

  private final String name;
  private final long pollNanos;
  private RuleSource.@Nullable Sink sink;
  private volatile ThreadFactory threads = Threads.daemons(); // the sink's, once attached
  private @Nullable Thread poller;
  private boolean closed;

  /**
   * Creates a source, not yet started.
   *
   * @param name what {@link #name()} returns: the kind of store and where it is
   * @param pollInterval how often to look; positive
   * @throws IllegalArgumentException if the interval is not positive
   */
  protected PollingRuleSource(String name, Duration pollInterval) {
    this.name = Objects.requireNonNull(name, "name");
    Objects.requireNonNull(pollInterval, "pollInterval");
    if (pollInterval.isNegative() || pollInterval.isZero()) {
      throw new IllegalArgumentException("pollInterval must be positive, was " + pollInterval);
    }
    this.pollNanos = pollInterval.toNanos();
  }

  @Override
  public final String name() {
    return name;
  }

  /**
   * Looks at the store once (delivering what it holds now, if it can), then polls.
   *
   * @throws IllegalStateException if already started or closed
   */
  @Override
  public final void start(RuleSource.Sink target) {
    Objects.requireNonNull(target, "sink");
    Thread thread;
    synchronized (this) {
      if (sink != null || closed) {
        throw new IllegalStateException(name + " is " + (closed ? "closed" : "attached already"));
      }
      sink = target;
      threads = target.threads();
      lookReporting(true);
      thread = Threads.make(target.threads(), "guard-rules " + name, () -> poll(target.clock()));
      poller = thread;
    }
    thread.start();
  }

  private void poll(TimeSource clock) {
    while (true) {
      try {
        clock.backgroundSleep(pollNanos);
      } catch (InterruptedException stop) {
        return;
      }
      synchronized (this) {
        if (closed) {
          return;
        }
        lookReporting(false);
      }
    }
  }

  private void lookReporting(boolean first) {
    try {
      look(first);
    } catch (InvalidRulesException invalid) {
      report(invalid.errors());
    } catch (RuntimeException unexpected) {
      report(List.of(new InvalidRulesException.Error(name, "could not be read: " + unexpected)));
    }
  }

  /**
   * Looks at the store once and delivers what changed. Called with the lock held: when attached,
   * then every poll interval, and whenever a subclass calls it (a store's change notice, say).
   *
   * @param first whether this is the look made when the source is attached
   */
  protected abstract void look(boolean first);

  /**
   * Delivers a rule set to the engine. A set the engine refuses changes nothing (its listeners
   * heard why) and is not thrown.
   *
   * @param rules the set
   */
  protected final synchronized void apply(RuleSet rules) {
    RuleSource.Sink target = sink;
    if (target != null) {
      try {
        target.apply(rules);
      } catch (InvalidRulesException refused) {
        // the engine told its listeners; the rules in force stay
      }
    }
  }

  /**
   * Tells the engine's listeners why the store could not be read or applied; the rules in force
   * stay.
   *
   * @param errors every reason
   */
  protected final synchronized void report(List<InvalidRulesException.Error> errors) {
    RuleSource.Sink target = sink;
    if (target != null) {
      target.invalid(errors);
    }
  }

  /**
   * Returns the part of the engine's rules this source owns ({@link RuleSource.Sink#part()}), or every
   * rule before the source is attached: parse documents with it, {@code RuleFormat.parse(text,
   * part())}, so that a rule outside the part makes the document invalid.
   *
   * @return the part
   */
  protected final synchronized RulePart part() {
    RuleSource.Sink target = sink;
    return target == null ? RulePart.all() : target.part();
  }

  /**
   * Returns where sets go, or null before the source is attached (a writable source that is not
   * attached only stores).
   *
   * @return the sink
   */
  protected final synchronized RuleSource.@Nullable Sink sink() {
    return sink;
  }

  /**
   * Returns where the source's threads come from: its engine's once attached ({@link
   * RuleSource.Sink#threads()}), guard's default before. Takes no lock, so a Redis client's I/O
   * thread may ask while a writer holds the source's monitor and waits for that thread.
   *
   * @return the thread factory
   */
  protected final ThreadFactory threads() {
    return threads;
  }

  /**
   * Returns whether {@link #close()} was called.
   *
   * @return true once closing started
   */
  protected final synchronized boolean closed() {
    return closed;
  }

  /**
   * Stops polling and waits for the polling thread to end, then calls {@link #release()}; the
   * rules in force stay. Closing twice does nothing.
   */
  @Override
  public final void close() {
    Thread thread;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      thread = poller;
    }
    boolean interrupted = false;
    if (thread != null && thread != Thread.currentThread()) {
      thread.interrupt();
      while (thread.isAlive()) {
        try {
          thread.join();
        } catch (InterruptedException again) {
          interrupted = true;
        }
      }
    }
    try {
      release();
    } catch (InterruptedException again) {
      interrupted = true;
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Releases what the subclass holds (connections, threads), once, after polling stopped. Does
   * nothing by default.
   *
   * @throws InterruptedException if interrupted while waiting for its threads (closing completes;
   *     the interrupt is kept)
   */
  protected void release() throws InterruptedException {}

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + name + "]";
  }
}
