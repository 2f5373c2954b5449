package dev.guard.examples;

import dev.guard.spi.RulePart;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import dev.guard.api.rule.RuleSet;
import dev.guard.rules.RuleSources;
import dev.guard.spi.RuleSource;
import dev.guard.rules.RuleFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The demo's rules when they come from a file ({@code --rules FILE}): the file is attached to the
 * engine and watched, and every change applied or refused becomes a line of news that the live
 * table prints between its rows.
 */
final class RulesFile implements EngineListener {

  private final Path file;
  private final Queue<String> news = new ConcurrentLinkedQueue<>();

  RulesFile(Path file) {
    this.file = file;
  }

  /** The file. */
  Path file() {
    return file;
  }

  /**
   * Reads the file once, to show its rules before the run.
   *
   * @throws IllegalArgumentException if it cannot be read or is not a valid rules document
   */
  RuleSet read() {
    try {
      return RuleFormat.parse(Files.readString(file));
    } catch (IOException unreadable) {
      throw new IllegalArgumentException("cannot read the rules file " + file + ": " + unreadable,
          unreadable);
    }
  }

  /** Listens to the engine being built (engine listeners are set when it is built). */
  GuardEngine.Builder listenTo(GuardEngine.Builder builder) {
    return builder.listener(this);
  }

  /** Applies the file to the engine and watches it until the returned source is closed. */
  RuleSource.Writable attach(GuardEngine engine) {
    RuleSource.Writable source = RuleSources.file(file);
    engine.attach(source, RulePart.all());
    return source;
  }

  @Override
  public void onRulesApplied(RuleSet.Revision revision) {
    if (revision.number() == 1) {
      return; // the rules the run starts with are shown in the introduction
    }
    List<String> now = new ArrayList<>();
    for (String resource : revision.changedResources()) {
      now.add(resource + " " + describe(revision.rules().rulesOf(resource)));
    }
    news.add("rules file changed, applied: " + String.join(", ", now));
  }

  @Override
  public void onRulesInvalid(String source, List<InvalidRulesException.Error> errors) {
    news.add("rules file refused, the rules in force stay: " + errors);
  }

  /** The news since the last call, oldest first. */
  List<String> drain() {
    List<String> lines = new ArrayList<>();
    for (String line = news.poll(); line != null; line = news.poll()) {
      lines.add(line);
    }
    return lines;
  }

  /** Rules written as the DSL would declare them: {@code qps(40).warmUp(10 s)}. */
  static String describe(List<Rule> rules) {
    if (rules.isEmpty()) {
      return "no rules";
    }
    List<String> parts = new ArrayList<>();
    for (Rule rule : rules) {
      if (rule instanceof FlowRule flow) {
        parts.add(describe(flow));
      } else if (rule instanceof CircuitBreakerRule breaker) {
        parts.add(describe(breaker));
      } else if (rule instanceof PerValueRule param) {
        parts.add((param.metric() == FlowRule.Metric.QPS ? "perValue(" : "perValueConcurrency(")
            + param.argumentIndex() + ", " + param.threshold() + ")");
      } else {
        parts.add(rule.toString());
      }
    }
    return String.join(" + ", parts);
  }

  private static String describe(FlowRule rule) {
    StringBuilder text = new StringBuilder(rule.metric() == FlowRule.Metric.QPS ? "qps(" : "concurrency(")
        .append(number(rule.threshold())).append(')');
    FlowRule.WarmUp warmUp = rule.warmUp();
    if (warmUp != null) {
      text.append(".warmUp(").append(seconds(warmUp.period().toMillis())).append(')');
    }
    if (rule.shaping() == dev.guard.api.rule.FlowRule.Shaping.PACING) {
      text.append(".pacing(").append(rule.maxQueueingTime().toMillis()).append(" ms)");
    }
    if (!rule.origin().equals(FlowRule.EVERY_ORIGIN)) {
      text.append(".fromOrigin(").append(rule.origin()).append(')');
    }
    return text.toString();
  }

  private static String describe(CircuitBreakerRule rule) {
    String strategy = switch (rule.strategy()) {
      case SLOW_CALL_RATIO -> "slowCallRatio";
      case ERROR_RATIO -> "errorRatio";
      case ERROR_COUNT -> "errorCount";
    };
    StringBuilder text = new StringBuilder(strategy).append('(').append(number(rule.threshold()));
    Duration slowerThan = rule.slowerThan();
    if (rule.strategy() == CircuitBreakerRule.Strategy.SLOW_CALL_RATIO && slowerThan != null) {
      text.append(", ").append(seconds(slowerThan.toMillis()));
    }
    text.append(')');
    if (!rule.openFor().equals(CircuitBreakerRule.DEFAULT_OPEN_FOR)) {
      text.append(".openFor(").append(seconds(rule.openFor().toMillis())).append(')');
    }
    return text.toString();
  }

  private static String number(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value)
        : String.format(Locale.ROOT, "%s", value);
  }

  private static String seconds(long millis) {
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }
}
