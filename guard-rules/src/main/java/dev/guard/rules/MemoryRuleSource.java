package dev.guard.rules;

import dev.guard.spi.RulePart;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.spi.RuleSource;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A rule source held in memory: the application (a test, an admin endpoint) writes whole rule
 * sets to it and the attached engine applies each at once. It pushes: no thread, no polling.
 *
 * Made by {@link RuleSources#memory}.
 *
 * <p>Thread-safe.
 */
final class MemoryRuleSource implements RuleSource.Writable {

  private final String name;
  private RuleSet rules;
  private RuleSource.@Nullable Sink sink;
  private boolean closed;

  MemoryRuleSource(String name, RuleSet rules) {
    this.name = name;
    this.rules = rules;
  }

  @Override
  public String name() {
    return name;
  }

  /**
   * Returns the rule set the source holds: the last one written (or the initial one).
   *
   * @return the set
   */
  public synchronized RuleSet rules() {
    return rules;
  }

  /**
   * Applies the set it holds to the engine ({@link InvalidRulesException} if refused).
   *
   * @throws IllegalStateException if already started or closed
   */
  @Override
  public synchronized void start(RuleSource.Sink target) {
    Objects.requireNonNull(target, "sink");
    if (sink != null || closed) {
      throw new IllegalStateException(name + " is " + (closed ? "closed" : "attached already"));
    }
    sink = target;
    target.apply(rules);
  }

  /**
   * Applies the set to the attached engine, then holds it; a set the engine refuses is not held.
   *
   * @throws InvalidRulesException if the engine refused the set
   * @throws IllegalStateException if the source is closed
   */
  @Override
  public synchronized void write(RuleSet next) {
    Objects.requireNonNull(next, "rules");
    if (closed) {
      throw new IllegalStateException(name + " is closed");
    }
    if (sink != null) {
      sink.apply(next);
    }
    rules = next;
  }

  @Override
  public synchronized void close() {
    closed = true;
    sink = null;
  }

  @Override
  public String toString() {
    return "MemoryRuleSource[" + name + "]";
  }
}
