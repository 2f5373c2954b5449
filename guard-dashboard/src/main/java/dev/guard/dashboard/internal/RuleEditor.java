package dev.guard.dashboard.internal;

import dev.guard.spi.RulePart;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.RuleSource;
import dev.guard.rules.RuleSources;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The write side: every edit and every roll-back is a whole rule set written through one writable
 * rule source, which applies it to the engine atomically before it stores it (an invalid set
 * changes nothing). Without a source from the application, the first write creates a memory source
 * ({@code RuleSources.memory}) holding the engine's rules in force and attaches it to the engine
 * (docs/DASHBOARD.md, "Rule edits").
 */
final class RuleEditor {

  /** The name the dashboard's own memory source gets (the history shows it as "memory:dashboard"). */
  static final String OWN_SOURCE = "dashboard";

  private final GuardEngine engine;
  private RuleSource.@Nullable Writable source;

  RuleEditor(GuardEngine engine, RuleSource.@Nullable Writable source) {
    this.engine = engine;
    this.source = source;
  }

  /** The source's name, as the rule history shows it. */
  synchronized String sourceName() {
    RuleSource.Writable current = source;
    return current != null ? current.name() : "memory:" + OWN_SOURCE;
  }

  private synchronized RuleSource.Writable source() {
    RuleSource.Writable current = source;
    if (current == null) {
      RuleSource.Writable own = RuleSources.memory(OWN_SOURCE, engine.ruleSet());
      engine.attach(own, RulePart.all());
      source = own;
      current = own;
    }
    return current;
  }

  /**
   * Writes a whole rule set.
   *
   * @return the engine's latest revision afterwards
   * @throws dev.guard.api.rule.InvalidRulesException if the engine refused the set
   */
  synchronized Map<String, Object> write(RuleSet rules) {
    source().write(rules);
    List<RuleSet.Revision> history = engine.ruleHistory();
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("source", sourceName());
    view.put("revision", history.isEmpty() ? null : history.get(history.size() - 1).number());
    return view;
  }
}
