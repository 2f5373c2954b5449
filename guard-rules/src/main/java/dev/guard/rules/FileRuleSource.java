package dev.guard.rules;

import dev.guard.api.TimeSource;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleError;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.RuleSink;
import dev.guard.engine.WritableRuleSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Rules kept in a file that operators edit: the file is applied when the source is attached and
 * again within a poll interval (default {@value #DEFAULT_POLL_MILLIS} ms) of every change.
 *
 * <pre>{@code
 * FileRuleSource rules = FileRuleSource.of(Path.of("/etc/shop/guard-rules.json"));
 * engine.attach(rules);
 * ...
 * rules.close();
 * }</pre>
 *
 * <p>How it watches: a daemon thread reads the whole file every poll interval, waiting on the
 * engine's time source (so a parking {@code ManualClock} drives it in tests), and applies it when
 * its bytes differ from the last ones applied. That works whatever the editor does: writing in
 * place, truncating, or writing a new file and renaming it over the old one. A file that does not
 * read as a valid rule set (half written, truncated, mistyped) changes nothing: the rules in force
 * stay, the source tries again at the next poll, and the engine's listeners hear of the errors
 * once the same content has failed two polls in a row (a half-written file is usually complete by
 * then) or at once when the source is attached. A deleted file also changes nothing: it is
 * reported after two polls, and its next version applies when it reappears.
 *
 * <p>{@link #write} stores a rule set in the file (a new file renamed over the old one) after the
 * engine applied it. Thread-safe.
 */
public final class FileRuleSource implements WritableRuleSource {

  /** The default poll interval in milliseconds. */
  public static final long DEFAULT_POLL_MILLIS = 250;

  private final Path file;
  private final long pollNanos;
  private @Nullable RuleSink sink;
  private @Nullable Thread poller;
  private boolean closed;
  /** The bytes last applied (or refused by the engine); null before the first, after deletion. */
  private byte @Nullable [] applied;
  /** The bytes that last failed to read as a rule set, and whether that was reported. */
  private byte @Nullable [] failing;
  private boolean failureReported;
  private int missingPolls;

  private FileRuleSource(Path file, long pollNanos) {
    this.file = file;
    this.pollNanos = pollNanos;
  }

  /**
   * Creates a source for a file, polled every {@value #DEFAULT_POLL_MILLIS} ms.
   *
   * @param file the rules document
   * @return the source, not yet started
   */
  public static FileRuleSource of(Path file) {
    return of(file, Duration.ofMillis(DEFAULT_POLL_MILLIS));
  }

  /**
   * Creates a source for a file with its own poll interval.
   *
   * @param file the rules document
   * @param pollInterval how often to look at the file; positive
   * @return the source, not yet started
   * @throws IllegalArgumentException if the interval is not positive
   */
  public static FileRuleSource of(Path file, Duration pollInterval) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(pollInterval, "pollInterval");
    if (pollInterval.isNegative() || pollInterval.isZero()) {
      throw new IllegalArgumentException("pollInterval must be positive, was " + pollInterval);
    }
    return new FileRuleSource(file.toAbsolutePath(), pollInterval.toNanos());
  }

  @Override
  public String name() {
    return "file:" + file;
  }

  /**
   * Applies the file as it is now (a missing or invalid file is reported and changes nothing),
   * then starts watching it.
   *
   * @throws IllegalStateException if already started or closed
   */
  @Override
  public void start(RuleSink target) {
    Objects.requireNonNull(target, "sink");
    Thread thread;
    synchronized (this) {
      if (sink != null || closed) {
        throw new IllegalStateException(name() + " is " + (closed ? "closed" : "attached already"));
      }
      sink = target;
      poll(true);
      thread = new Thread(() -> watch(target.clock()), "guard-rules " + file.getFileName());
      thread.setDaemon(true);
      poller = thread;
    }
    thread.start();
  }

  private void watch(TimeSource clock) {
    while (true) {
      try {
        clock.sleep(pollNanos);
      } catch (InterruptedException stop) {
        return;
      }
      synchronized (this) {
        if (closed) {
          return;
        }
        try {
          poll(false);
        } catch (RuntimeException unexpected) {
          report(List.of(new RuleError(name(), "could not be polled: " + unexpected)));
        }
      }
    }
  }

  /** Looks at the file once; caller holds the lock. */
  private void poll(boolean first) {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = RuleText.readBounded(in);
    } catch (NoSuchFileException gone) {
      applied = null;
      failing = null;
      missingPolls = first ? 2 : missingPolls + 1;
      if (first || missingPolls == 2) {
        report(List.of(new RuleError(name(), "does not exist; the rules in force stay")));
      }
      return;
    } catch (IOException unreadable) {
      fail(new byte[0], List.of(new RuleError(name(), "could not be read: " + unreadable)), first);
      return;
    }
    missingPolls = 0;
    if (Arrays.equals(bytes, applied)) {
      failing = null;
      return;
    }
    RuleSet rules;
    try {
      rules = RuleFormat.parse(RuleText.decode(bytes));
    } catch (InvalidRulesException invalid) {
      fail(bytes, invalid.errors(), first);
      return;
    }
    failing = null;
    applied = bytes;
    try {
      Objects.requireNonNull(sink).apply(rules);
    } catch (InvalidRulesException refused) {
      // the engine told its listeners; keep the rules in force until the file changes again
    }
  }

  /** A read that failed: reported at once on attach, else when the same bytes failed twice. */
  private void fail(byte[] bytes, List<RuleError> errors, boolean first) {
    boolean repeated = Arrays.equals(bytes, failing);
    if (!repeated) {
      failing = bytes;
      failureReported = false;
    }
    if ((first || repeated) && !failureReported) {
      failureReported = true;
      report(errors);
    }
  }

  private void report(List<RuleError> errors) {
    Objects.requireNonNull(sink).reject(errors);
  }

  /**
   * Applies a rule set to the attached engine, then stores it in the file (written next to it and
   * renamed over it, so no reader sees half of it). Without an engine attached it is only stored.
   *
   * @throws InvalidRulesException if the engine refused the set (the file is unchanged)
   * @throws UncheckedIOException if the file could not be written (the engine keeps the new set
   *     until the file is read successfully again)
   * @throws IllegalArgumentException if a rule is of a kind the format does not know
   * @throws IllegalStateException if the source is closed
   */
  @Override
  public synchronized void write(RuleSet rules) {
    Objects.requireNonNull(rules, "rules");
    if (closed) {
      throw new IllegalStateException(name() + " is closed");
    }
    byte[] bytes = RuleFormat.write(rules).getBytes(StandardCharsets.UTF_8);
    if (sink != null) {
      sink.apply(rules);
    }
    try {
      Path temporary = file.resolveSibling("." + file.getFileName() + ".writing");
      Files.write(temporary, bytes);
      try {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException notAtomic) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
      applied = bytes;
      failing = null;
    } catch (IOException unwritable) {
      applied = null; // the next poll applies what the file holds
      throw new UncheckedIOException("cannot write " + name(), unwritable);
    }
  }

  /** Stops watching and waits for the watching thread to end; the rules in force stay. */
  @Override
  public void close() {
    Thread thread;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      thread = poller;
    }
    if (thread != null && thread != Thread.currentThread()) {
      thread.interrupt();
      boolean interrupted = false;
      while (thread.isAlive()) {
        try {
          thread.join();
        } catch (InterruptedException again) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String toString() {
    return "FileRuleSource[" + file + "]";
  }
}
