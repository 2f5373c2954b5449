package dev.guard.benchmarks;

import com.alibaba.csp.sentinel.Entry;
import com.alibaba.csp.sentinel.EntryType;
import com.alibaba.csp.sentinel.SphU;
import com.alibaba.csp.sentinel.Tracer;
import com.alibaba.csp.sentinel.slots.block.BlockException;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRule;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRuleManager;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRuleManager;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowRule;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowRuleManager;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * How the benchmarks load Sentinel rules and call a Sentinel resource, in the forms Sentinel's
 * documentation recommends.
 *
 * <p>Sentinel's rule managers are global and {@code loadRules} replaces every rule of a kind. The
 * {@code add…} methods therefore keep the rules of other resources, so that states of several
 * scenarios can live in one JVM (as in the unit tests, or a run with {@code -f 0}). Each one also
 * checks that Sentinel accepted the rule: an invalid rule is dropped silently, which would turn an
 * "admits" scenario into the no-rules scenario without anyone noticing.
 */
final class Sentinel {
  private Sentinel() {}

  static void addFlowRule(FlowRule rule) {
    List<FlowRule> rules = new ArrayList<>(FlowRuleManager.getRules());
    rules.removeIf(r -> r.getResource().equals(rule.getResource()));
    rules.add(rule);
    FlowRuleManager.loadRules(rules);
    Sanity.require(
        FlowRuleManager.hasConfig(rule.getResource()), "Sentinel dropped the flow rule " + rule);
  }

  static void addCircuitBreakerRule(DegradeRule rule) {
    List<DegradeRule> rules = new ArrayList<>(DegradeRuleManager.getRules());
    rules.removeIf(r -> r.getResource().equals(rule.getResource()));
    rules.add(rule);
    DegradeRuleManager.loadRules(rules);
    Sanity.require(
        DegradeRuleManager.hasConfig(rule.getResource()),
        "Sentinel dropped the degrade rule " + rule);
  }

  static void addPerValueRule(ParamFlowRule rule) {
    List<ParamFlowRule> rules = new ArrayList<>(ParamFlowRuleManager.getRules());
    rules.removeIf(r -> r.getResource().equals(rule.getResource()));
    rules.add(rule);
    ParamFlowRuleManager.loadRules(rules);
    Sanity.require(
        ParamFlowRuleManager.hasRules(rule.getResource()),
        "Sentinel dropped the param-flow rule " + rule);
  }

  /** Enters {@code resource}, runs {@code body} and exits: the try-with-resources form. */
  static Object call(String resource, Supplier<Object> body) {
    try (Entry entry = SphU.entry(resource)) {
      return body.get();
    } catch (BlockException e) {
      return Calls.REFUSED;
    }
  }

  /**
   * Like {@link #call} but reports business exceptions to the entry with {@code
   * Tracer.traceEntry}, which exception-based circuit breakers need. The body never throws here,
   * so the trace costs nothing, but this is the form a user with a degrade rule must write.
   */
  static Object callTraced(String resource, Supplier<Object> body) {
    Entry entry = null;
    try {
      entry = SphU.entry(resource);
      return body.get();
    } catch (BlockException e) {
      return Calls.REFUSED;
    } catch (RuntimeException e) {
      Tracer.traceEntry(e, entry);
      throw e;
    } finally {
      if (entry != null) {
        entry.exit();
      }
    }
  }

  /**
   * Enters {@code resource} with a per-value argument and exits with the same parameter, as Sentinel's
   * documentation requires for parameter statistics to stay right. {@code OUT} is the entry type
   * {@code SphU.entry(String)} uses, so this differs from {@link #call} only by the parameter.
   */
  static Object callWithArgument(String resource, Object argument, Supplier<Object> body) {
    Entry entry = null;
    try {
      entry = SphU.entry(resource, EntryType.OUT, 1, argument);
      return body.get();
    } catch (BlockException e) {
      return Calls.REFUSED;
    } finally {
      if (entry != null) {
        entry.exit(1, argument);
      }
    }
  }
}
