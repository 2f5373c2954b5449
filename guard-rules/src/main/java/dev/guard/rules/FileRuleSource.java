package dev.guard.rules;

import dev.guard.spi.RulePart;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.spi.RuleSource;
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
 * again within a poll interval (default {@link RuleSources#DEFAULT_FILE_POLL}) of every change.
 *
 * Made by {@link RuleSources#file(Path, Duration)}.
 *
 * <p>How it watches: a daemon thread reads the whole file every poll interval, waiting on the
 * engine's time source (so a {@code ManualClock} in either mode drives it in tests), and applies
 * it when its bytes differ from the last ones applied. That works whatever the editor does:
 * writing in place, truncating, or writing a new file and renaming it over the old one. A file that does not
 * read as a valid rule set (half written, truncated, mistyped) changes nothing: the rules in force
 * stay, the source tries again at the next poll, and the engine's listeners hear of the errors
 * once the same content has failed two polls in a row (a half-written file is usually complete by
 * then) or at once when the source is attached. A deleted file also changes nothing: it is
 * reported after two polls, and its next version applies when it reappears.
 *
 * <p>{@link #write} stores a rule set in the file (a new file renamed over the old one) after the
 * engine applied it; a set whose document would not read back is refused first, so the file
 * always holds a document an engine reads. Thread-safe.
 */
final class FileRuleSource extends PollingRuleSource implements RuleSource.Writable {

  private final Path file;
  /** The bytes last applied (or refused by the engine); null before the first, after deletion. */
  private byte @Nullable [] applied;
  /** The bytes that last failed to read as a rule set, and whether that was reported. */
  private byte @Nullable [] failing;
  private boolean failureReported;
  private int missingPolls;

  FileRuleSource(Path file, Duration pollInterval) {
    super("file:" + file, pollInterval);
    this.file = file;
  }

  /**
   * Looks at the file once; the lock is held. When attached, a missing or invalid file is reported
   * at once and changes nothing.
   *
   * @param first whether the source is being attached
   */
  @Override
  protected void look(boolean first) {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = RuleText.readBounded(in);
    } catch (NoSuchFileException gone) {
      applied = null;
      failing = null;
      missingPolls = first ? 2 : missingPolls + 1;
      if (first || missingPolls == 2) {
        report(List.of(new InvalidRulesException.Error(name(), "does not exist; the rules in force stay")));
      }
      return;
    } catch (IOException unreadable) {
      fail(new byte[0], List.of(new InvalidRulesException.Error(name(), "could not be read: " + unreadable)), first);
      return;
    }
    missingPolls = 0;
    if (Arrays.equals(bytes, applied)) {
      failing = null;
      return;
    }
    RuleSet rules;
    try {
      rules = RuleFormat.parse(RuleText.decode(bytes), part());
    } catch (InvalidRulesException invalid) {
      fail(bytes, invalid.errors(), first);
      return;
    }
    failing = null;
    applied = bytes;
    apply(rules); // a set the engine refuses changes nothing until the file changes again
  }

  /** A read that failed: reported at once on attach, else when the same bytes failed twice. */
  private void fail(byte[] bytes, List<InvalidRulesException.Error> errors, boolean first) {
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

  /**
   * Applies a rule set to the attached engine, then stores it in the file (written next to it and
   * renamed over it, so no reader sees half of it). Without an engine attached it is only stored.
   * A set whose document would not read back ({@link RuleFormat#write}: longer than {@link
   * RuleFormat#MAX_DOCUMENT_CHARS} characters written) is refused before anything is applied.
   *
   * @throws InvalidRulesException if the set's document would not read back, or the engine
   *     refused the set (the file is unchanged either way)
   * @throws UncheckedIOException if the file could not be written (the engine keeps the new set
   *     until the file is read successfully again)
   * @throws IllegalArgumentException if a rule is of a kind the format does not know
   * @throws IllegalStateException if the source is closed
   */
  @Override
  public synchronized void write(RuleSet rules) {
    Objects.requireNonNull(rules, "rules");
    if (closed()) {
      throw new IllegalStateException(name() + " is closed");
    }
    byte[] bytes = RuleFormat.write(rules).getBytes(StandardCharsets.UTF_8);
    RuleSource.Sink sink = sink();
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

  @Override
  public String toString() {
    return "FileRuleSource[" + file + "]";
  }
}
