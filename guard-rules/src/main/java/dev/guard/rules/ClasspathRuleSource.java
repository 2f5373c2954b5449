package dev.guard.rules;

import dev.guard.spi.RulePart;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.spi.RuleSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * Rules shipped with the application: a rules document read once from the class path when the
 * source is attached. A missing or invalid document fails the attach, since it is a packaging
 * error, not an operator's edit.
 *
 * Made by {@link RuleSources#classpath(ClassLoader, String)}.
 */
final class ClasspathRuleSource implements RuleSource {

  private final ClassLoader loader;
  private final String resource;
  private boolean started;

  ClasspathRuleSource(ClassLoader loader, String resource) {
    this.loader = loader;
    this.resource = resource;
  }

  @Override
  public String name() {
    return "classpath:" + resource;
  }

  /**
   * Reads the document and applies it.
   *
   * @throws InvalidRulesException if the document is missing or invalid, or the engine refused it
   *     (the engine's listeners hear of it too)
   * @throws UncheckedIOException if the document could not be read
   * @throws IllegalStateException if already started
   */
  @Override
  public synchronized void start(RuleSource.Sink sink) {
    Objects.requireNonNull(sink, "sink");
    if (started) {
      throw new IllegalStateException(name() + " is attached already");
    }
    started = true;
    byte[] bytes;
    try (InputStream in = loader.getResourceAsStream(resource)) {
      bytes = in == null ? null : RuleText.readBounded(in);
    } catch (IOException unreadable) {
      throw new UncheckedIOException("cannot read " + name(), unreadable);
    }
    RuleSet rules;
    try {
      if (bytes == null) {
        throw new InvalidRulesException(
            List.of(new InvalidRulesException.Error(name(), "is not on the class path")));
      }
      rules = RuleFormat.parse(RuleText.decode(bytes), sink.part());
    } catch (InvalidRulesException invalid) {
      sink.invalid(invalid.errors());
      throw invalid;
    }
    sink.apply(rules);
  }

  /** Nothing to stop: the document is read once. */
  @Override
  public void close() {}

  @Override
  public String toString() {
    return "ClasspathRuleSource[" + resource + "]";
  }
}
