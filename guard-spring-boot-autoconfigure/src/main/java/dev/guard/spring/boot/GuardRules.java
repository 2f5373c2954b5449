package dev.guard.spring.boot;

import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.rules.RuleSources;
import dev.guard.spi.RulePart;
import dev.guard.spi.RuleSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Where the engine's rules come from in a Spring application: {@code guard.rules}, {@code
 * guard.rules-file} or {@code guard.redis.rules-key}, at most one of them. Attaches that source to
 * the engine when the context starts (invalid rules fail the start-up with their property paths)
 * and closes it with the context. {@code guard.rules} are read again on Spring Cloud's environment
 * change event and on {@link #reload()} (the actuator's {@code reload}).
 */
public final class GuardRules implements ApplicationListener<ApplicationEvent>, DisposableBean {

  /** Spring Cloud's event after a refresh of the environment; matched by name, no dependency. */
  static final String ENVIRONMENT_CHANGE_EVENT =
      "org.springframework.cloud.context.environment.EnvironmentChangeEvent";

  private final @Nullable EnvironmentRuleSource environmentSource;
  private final @Nullable RuleSource attached;

  GuardRules(GuardEngine engine, ConfigurableEnvironment environment, GuardProperties properties,
      @Nullable RuleSource redisSource) {
    Optional<RuleSet> fromEnvironment;
    try {
      fromEnvironment = EnvironmentRules.read(environment);
    } catch (InvalidRulesException invalid) {
      throw invalid(invalid);
    }
    Path file = properties.rulesFile();
    List<String> places = new ArrayList<>();
    fromEnvironment.ifPresent(rules -> places.add(EnvironmentRules.PREFIX));
    if (file != null) {
      places.add("guard.rules-file");
    }
    if (redisSource != null) {
      places.add("guard.redis.rules-key");
    }
    if (places.size() > 1) {
      throw InvalidGuardSettingsException.of(String.join(", ", places),
          "guard's rules come from one place, but all of these are set: keep one of them");
    }
    if (fromEnvironment.isPresent()) {
      environmentSource = new EnvironmentRuleSource(environment, fromEnvironment.get());
      attached = environmentSource;
    } else {
      environmentSource = null;
      attached = file != null ? RuleSources.file(file) : redisSource;
    }
    if (attached != null) {
      try {
        engine.attach(attached, RulePart.all());
      } catch (InvalidRulesException invalid) {
        attached.close();
        throw invalid(invalid);
      }
    }
  }

  /**
   * Returns the name of the attached rule source, if the rules come from one.
   *
   * @return the source's name, such as {@code spring:guard.rules}
   */
  public Optional<String> source() {
    return Optional.ofNullable(attached).map(RuleSource::name);
  }

  /** The attached source, when operators' tools may write to it (a rules file). */
  RuleSource.@Nullable Writable writable() {
    return attached instanceof RuleSource.Writable writable ? writable : null;
  }

  /**
   * Reads {@code guard.rules} from the environment again and applies them as one rule set.
   *
   * @return whether they were valid and are in force; false also when the rules do not come from
   *     {@code guard.rules}
   */
  public boolean reload() {
    return environmentSource != null && environmentSource.reload();
  }

  @Override
  public void onApplicationEvent(ApplicationEvent event) {
    if (event.getClass().getName().equals(ENVIRONMENT_CHANGE_EVENT)) {
      reload();
    }
  }

  @Override
  public void destroy() {
    if (attached != null) {
      attached.close();
    }
  }

  /** Invalid rules: every problem with its property path. */
  static InvalidGuardSettingsException invalid(InvalidRulesException invalid) {
    return new InvalidGuardSettingsException(
        invalid.errors().stream().map(String::valueOf).toList(), invalid);
  }
}
