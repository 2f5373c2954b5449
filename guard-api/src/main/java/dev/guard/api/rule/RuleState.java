package dev.guard.api.rule;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import java.util.List;
import java.util.Objects;

/**
 * The run-time state of one rule in force, as {@code GuardEngine.ruleStates} reads it for
 * dashboards and diagnostics: how cold a warm-up rule is, which values a per-value rule is
 * limiting. Values are snapshots taken when read; reading never changes a rule's state and never
 * touches the call path. Circuit breakers have their own live handles ({@code
 * GuardEngine.breakers}).
 *
 * <pre>{@code
 * for (RuleState state : engine.ruleStates("checkout")) {
 *   if (state instanceof RuleState.WarmUpState warmUp && warmUp.cold()) {
 *     log.info("checkout still warming up: {} calls/s allowed", warmUp.allowedQps());
 *   }
 * }
 * }</pre>
 */
public sealed interface RuleState {

  /**
   * Returns the rule this state belongs to.
   *
   * @return the rule, as loaded
   */
  Rule rule();

  /**
   * The bucket of a flow rule with warm-up: the stored tokens set the rate the rule admits, from
   * {@code threshold / coldFactor} with a full bucket ({@code maxTokens}) up to {@code threshold}
   * once the bucket is below {@code warningTokens}. The bucket is brought up to date by the first call
   * of each second, so with no traffic it reads as it was left. docs/SHAPING.md, "Warm-up", has
   * the formulas.
   *
   * @param rule the warm-up rule
   * @param storedTokens the tokens in the bucket now
   * @param warningTokens below this level the rule is warm and admits its whole count
   * @param maxTokens a full bucket: the coldest the rule can be
   * @param allowedQps the rate the rule admits at this fill level, in calls per second
   */
  record WarmUpState(
      FlowRule rule, long storedTokens, long warningTokens, long maxTokens, double allowedQps)
      implements RuleState {

    /**
     * Checks the rule.
     *
     * @param rule the warm-up rule
     * @param storedTokens the tokens in the bucket now
     * @param warningTokens the warm line
     * @param maxTokens a full bucket
     * @param allowedQps the rate allowed now
     * @throws NullPointerException if the rule is null
     */
    public WarmUpState {
      Objects.requireNonNull(rule, "rule");
    }

    /**
     * Tells whether the rule is still warming up: its bucket is on or above the warning line, so
     * it admits less than its count.
     *
     * @return whether the rule is cold
     */
    public boolean cold() {
      return storedTokens >= warningTokens && maxTokens > warningTokens;
    }
  }

  /**
   * The values a per-value rule remembers, and those it is limiting now: values a call
   * would be refused for at this moment (an empty bucket, a full schedule, no free place).
   *
   * @param rule the per-value rule
   * @param valuesTracked how many values the rule remembers now (at most its {@code maxValues},
   *     see docs/BEHAVIOUR.md, "Per-value limits")
   * @param limitedValues values a single call would be refused for now, at most {@link
   *     #MAX_LISTED} of them, in no particular order
   */
  record PerValueState(PerValueRule rule, long valuesTracked, List<Object> limitedValues)
      implements RuleState {

    /** The most limited values listed in one state. */
    public static final int MAX_LISTED = 50;

    /**
     * Copies the list.
     *
     * @param rule the per-value rule
     * @param valuesTracked how many values the rule remembers
     * @param limitedValues the values being limited now
     * @throws NullPointerException if the rule or the list is null
     */
    public PerValueState {
      Objects.requireNonNull(rule, "rule");
      limitedValues = List.copyOf(limitedValues);
    }
  }
  /**
   * The limit an adaptive concurrency rule has found, and what it measured: docs/BEHAVIOUR.md,
   * "Adaptive concurrency", says how the limit moves.
   *
   * @param rule the adaptive concurrency rule
   * @param limit the calls it lets run at once now, within its bounds
   * @param inFlight the calls it admitted that are running now
   * @param baselineRtMs the response time it compares windows with, in milliseconds: the best
   *     window average since it was last re-measured; 0 before the first window ended
   * @param lastRtMs the average response time of successful calls in the last window that had
   *     some, in milliseconds; 0 before then
   * @param remeasuring whether the limit now is a re-measurement's of the baseline (three quarters of
   *     the limit found, for two windows)
   */
  record AdaptiveConcurrencyState(AdaptiveConcurrencyRule rule, int limit, int inFlight,
      double baselineRtMs, double lastRtMs, boolean remeasuring) implements RuleState {

    /**
     * Checks the rule.
     *
     * @param rule the rule
     * @param limit the limit now
     * @param inFlight the calls running
     * @param baselineRtMs the baseline
     * @param lastRtMs the last window average
     * @param remeasuring whether the baseline is being re-measured
     * @throws NullPointerException if the rule is null
     */
    public AdaptiveConcurrencyState {
      Objects.requireNonNull(rule, "rule");
    }
  }
}
