package dev.guard.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.spi.RuleSource;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A source that delivers what the test hands it. */
public final class HandedSource implements RuleSource {
  private final String name;
  public RuleSource.@Nullable Sink sink;
  public final List<List<InvalidRulesException.Error>> invalid = new ArrayList<>();

  public HandedSource(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void start(RuleSource.Sink target) {
    sink = target;
  }

  public void deliver(RuleSet rules) {
    List<InvalidRulesException.Error> outside = new ArrayList<>();
    for (var rule : rules.rules()) {
      if (!target().part().contains(rule)) {
        outside.add(new InvalidRulesException.Error("rules[" + rule.resource() + "]", "outside the part"));
      }
    }
    if (outside.isEmpty()) {
      target().apply(rules);
    } else {
      invalid.add(outside);
      target().invalid(outside);
    }
  }

  public RuleSource.Sink target() {
    RuleSource.Sink attached = sink;
    assertThat(attached).as("attached").isNotNull();
    return attached;
  }

  @Override
  public void close() {
    sink = null;
  }
}
