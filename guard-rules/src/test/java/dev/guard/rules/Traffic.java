package dev.guard.rules;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Calls every resource of a rule set, and one it does not name, in both directions and with
 * arguments of every type per-value rules read, over a few seconds of a manual clock: each
 * call must pass or be refused with a {@link RefusedException}, nothing else.
 */
final class Traffic {

  private static final Object[][] ARGUMENTS = {
      {}, {"vip", 7}, {7, 7L, 7.0, true}, {null, "x"}};

  private Traffic() {}

  /** Sends the calls; returns how many were refused. */
  static int answerEveryCall(GuardEngine engine, ManualClock clock, RuleSet rules) {
    List<String> resources = new ArrayList<>(rules.resources());
    resources.remove(dev.guard.api.rule.SystemRule.INBOUND);
    resources.add("unnamed-by-the-rules");
    int refused = 0;
    for (int second = 0; second < 3; second++) {
      for (String resource : resources) {
        for (EntryType type : EntryType.values()) {
          for (Object[] args : ARGUMENTS) {
            refused += call(engine, resource, type, args) == null ? 0 : 1;
          }
        }
      }
      clock.advance(Duration.ofMillis(700));
    }
    return refused;
  }

  private static @Nullable RefusedException call(
      GuardEngine engine, String resource, EntryType type, Object[] args) {
    Entry entry;
    try {
      entry = engine.resource(resource).entryType(type).permits(1).enter(args);
    } catch (RefusedException refused) {
      return refused;
    }
    entry.close();
    return null;
  }
}
