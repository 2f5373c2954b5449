package dev.guard.rules;

import dev.guard.api.rule.RuleSet;
import dev.guard.spi.RuleSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * The rule sources of this module: a watched file, a class path resource and memory. A source is
 * not tied to an engine when it is made; the engine attaches it ({@code engine.attach(source,
 * part)}) and closing the source ends the deliveries.
 *
 * <pre>{@code
 * RuleSource.Writable rules = RuleSources.file(Path.of("/etc/shop/guard-rules.json"));
 * engine.attach(rules, part);              // applies the file now, then every change
 * ...
 * rules.close();
 * }</pre>
 *
 * <p>Sources that look at a store of their own extend {@link PollingRuleSource}.
 */
public final class RuleSources {

  /** How often a file source looks at its file unless told otherwise: every 250 ms. */
  public static final Duration DEFAULT_FILE_POLL = Duration.ofMillis(250);

  private RuleSources() {}

  /**
   * Returns a source for a file that operators edit, looked at every {@link #DEFAULT_FILE_POLL}.
   *
   * @param file the rules document
   * @return the source, not yet attached
   * @see #file(Path, Duration)
   */
  public static RuleSource.Writable file(Path file) {
    return file(file, DEFAULT_FILE_POLL);
  }

  /**
   * Returns a source for a file that operators edit: the file is applied when the source is
   * attached and again within a poll interval of every change. A daemon thread reads the whole
   * file every interval, waiting on the engine's time source (so a {@code ManualClock} drives it
   * in tests), and applies it when its bytes differ from the last ones applied, whatever the
   * editor does (writing in place, truncating, renaming a new file over the old one). A file that
   * does not read as a valid rule set, or a deleted file, changes nothing: the rules in force
   * stay, the next poll tries again, and the engine's listeners hear of it once the same content
   * failed two polls in a row (at once when the source is attached). {@code write} stores a set
   * in the file (a new file renamed over the old one) after the engine applied it, and refuses
   * ({@code InvalidRulesException}) a set whose document would not read back, before applying
   * it. Thread-safe.
   *
   * @param file the rules document
   * @param pollInterval how often to look at the file; positive
   * @return the source, not yet attached; its name is {@code file:} and the absolute path
   * @throws IllegalArgumentException if the interval is not positive
   */
  public static RuleSource.Writable file(Path file, Duration pollInterval) {
    Objects.requireNonNull(file, "file");
    return new FileRuleSource(file.toAbsolutePath(), pollInterval);
  }

  /**
   * Returns a source for rules shipped with the application, read once from the class path of the
   * calling thread's context class loader (or, without one, guard's) when the source is attached.
   * A missing or invalid document fails the attach: it is a packaging error, not an operator's
   * edit.
   *
   * @param resource the document's resource name, such as {@code "guard-rules.json"} (no leading
   *     slash)
   * @return the source
   */
  public static RuleSource classpath(String resource) {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    return classpath(context != null ? context : RuleSources.class.getClassLoader(), resource);
  }

  /**
   * Returns a source for rules shipped with the application, found by a class loader (see
   * {@link #classpath(String)}).
   *
   * @param loader the class loader to find the document with
   * @param resource the document's resource name
   * @return the source
   */
  public static RuleSource classpath(ClassLoader loader, String resource) {
    Objects.requireNonNull(loader, "loader");
    Objects.requireNonNull(resource, "resource");
    return new ClasspathRuleSource(loader, resource);
  }

  /**
   * Returns a source held in memory: the application (a test, an admin endpoint) writes whole
   * rule sets to it and the attached engine applies each at once. It pushes: no thread, no
   * polling. Thread-safe.
   *
   * <pre>{@code
   * RuleSource.Writable admin = RuleSources.memory("admin", RuleSet.empty());
   * engine.attach(admin, part);
   * admin.write(RuleSet.of(List.of(FlowRule.qps("search", 80))));
   * }</pre>
   *
   * @param name the source's name, for rule history and events ("memory:" is put before it)
   * @param initial the set delivered when the source is attached
   * @return the source
   */
  public static RuleSource.Writable memory(String name, RuleSet initial) {
    Objects.requireNonNull(name, "name");
    return new MemoryRuleSource("memory:" + name, Objects.requireNonNull(initial, "initial"));
  }
}
