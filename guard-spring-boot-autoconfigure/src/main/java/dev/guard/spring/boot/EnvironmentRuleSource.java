package dev.guard.spring.boot;

import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.spi.RuleSource;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The rules under {@code guard.rules}, as a rule source of the engine: delivered when attached,
 * and again on each {@link #reload()} (an environment change, a context refresh, the actuator's
 * {@code reload}), through the engine's atomic rule-set path like any other source. A reload whose
 * rules are invalid keeps the rules in force and tells the engine's listeners why.
 */
final class EnvironmentRuleSource implements RuleSource {

  static final String NAME = "spring:" + EnvironmentRules.PREFIX;

  private final ConfigurableEnvironment environment;
  private final RuleSet initial;
  private volatile RuleSource.@Nullable Sink sink;
  private volatile boolean closed;

  EnvironmentRuleSource(ConfigurableEnvironment environment, RuleSet initial) {
    this.environment = environment;
    this.initial = initial;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public synchronized void start(RuleSource.Sink target) {
    if (sink != null || closed) {
      throw new IllegalStateException(NAME + " was started already or is closed");
    }
    sink = Objects.requireNonNull(target, "sink");
    target.apply(initial);
  }

  /**
   * Reads {@code guard.rules} again and delivers them.
   *
   * @return whether the rules were valid (and are now in force)
   */
  synchronized boolean reload() {
    RuleSource.Sink target = sink;
    if (target == null || closed) {
      return false;
    }
    RuleSet rules;
    try {
      rules = EnvironmentRules.read(environment).orElse(RuleSet.of(java.util.List.of()));
    } catch (InvalidRulesException invalid) {
      target.invalid(invalid.errors());
      return false;
    }
    try {
      target.apply(rules);
      return true;
    } catch (InvalidRulesException refused) {
      return false;
    }
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public String toString() {
    return NAME;
  }
}
