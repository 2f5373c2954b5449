package dev.guard.dashboard.internal;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.api.PeriodStats;
import dev.guard.api.rule.RuleState;
import dev.guard.spi.TokenService;
import dev.guard.rules.RuleFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The read side of the JSON API: plain maps and lists built from the engine's public API, which
 * the core serializes. Each method is one endpoint of docs/DASHBOARD.md.
 */
final class EngineViews {

  /** The history shown by default: the last 5 minutes. */
  static final int DEFAULT_SECONDS = 300;

  /** The longest history one request may ask for: an engine keeps at most an hour. */
  static final int MAX_SECONDS = 3600;

  /** The window refusals are summed over. */
  static final int REFUSAL_SECONDS = 60;

  private final GuardEngine engine;
  private final ObjectMapper json;

  EngineViews(GuardEngine engine, ObjectMapper json) {
    this.engine = engine;
    this.json = json;
  }

  /** {@code GET /api/resources?sort=passed|refused|rt|name}; the sort is one of those. */
  Map<String, Object> resources(String sort) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (String name : engine.resources()) {
      rows.add(resourceRow(name, engine.stats(name)));
    }
    String key = switch (sort) {
      case "refused" -> "refusedQps";
      case "rt" -> "averageRtMs";
      case "name" -> "name";
      default -> "passQps";
    };
    // the live rate first, then the minute's total (steadier), then the name
    String total = key.equals("refusedQps") ? "minuteRefused" : "minutePass";
    Comparator<Map<String, Object>> order = key.equals("name")
        ? Comparator.comparing(row -> (String) row.get("name"))
        : Comparator.<Map<String, Object>>comparingDouble(row -> (Double) row.get(key))
            .thenComparingLong(row -> (Long) row.get(total)).reversed()
            .thenComparing(row -> (String) row.get("name"));
    rows.sort(order);
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("timeMs", engine.timeMs());
    view.put("sort", sort);
    view.put("resources", rows);
    return view;
  }

  private static Map<String, Object> resourceRow(String name, NodeStats stats) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("name", name);
    row.putAll(live(stats));
    return row;
  }

  private static Map<String, Object> live(NodeStats stats) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("passQps", finite(stats.passQps()));
    row.put("refusedQps", finite(stats.refusedQps()));
    row.put("averageRtMs", finite(stats.averageRt()));
    row.put("concurrency", stats.concurrency());
    row.put("minutePass", stats.totalPass());
    row.put("minuteRefused", stats.totalRefused());
    return row;
  }

  private static double finite(double value) {
    return Double.isFinite(value) ? value : 0.0;
  }

  /** {@code GET /api/overview}. */
  Map<String, Object> overview(String ruleSource) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("timeMs", engine.timeMs());
    view.put("resources", engine.resources().size());
    view.put("inbound", live(engine.inboundStats()));
    view.put("ruleSource", ruleSource);
    view.put("tokenService", engine.tokenService().map(Object::toString).orElse(null));
    List<RuleSet.Revision> history = engine.ruleHistory();
    view.put("revision", history.isEmpty() ? null : history.get(history.size() - 1).number());
    return view;
  }

  /** {@code GET /api/resources/{name}}: the live one-second figures. */
  Map<String, Object> resource(String name) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("name", name);
    view.put("timeMs", engine.timeMs());
    view.putAll(live(engine.stats(name)));
    return view;
  }

  /** {@code GET /api/resources/{name}/metrics?seconds=N}: one point per closed second. */
  Map<String, Object> metrics(String name, int seconds) {
    long now = engine.timeMs();
    long to = now - now % 1000;
    long from = to - seconds * 1000L;
    Map<Long, PeriodStats> recorded = new TreeMap<>();
    for (PeriodStats second : engine.metricsHistory(name, from, to)) {
      recorded.put(second.fromMs(), second);
    }
    List<Map<String, Object>> points = new ArrayList<>(seconds);
    for (long t = Math.max(0, from); t < to; t += 1000) {
      PeriodStats second = recorded.get(t);
      Map<String, Object> point = new LinkedHashMap<>();
      point.put("t", t);
      point.put("pass", second == null ? 0 : second.pass());
      point.put("refused", second == null ? 0 : second.refused());
      point.put("success", second == null ? 0 : second.success());
      point.put("exception", second == null ? 0 : second.exception());
      point.put("averageRtMs", second == null ? 0.0 : second.averageRtMs());
      point.put("concurrency", second == null ? 0 : second.concurrency());
      if (second != null && second.adaptiveLimit() != PeriodStats.NO_ADAPTIVE_LIMIT) {
        point.put("adaptiveLimit", second.adaptiveLimit());
      }
      points.add(point);
    }
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("name", name);
    view.put("fromMs", Math.max(0, from));
    view.put("toMs", to);
    view.put("points", points);
    return view;
  }

  /** {@code GET /api/resources/{name}/refusals}: the last minute by kind and by origin. */
  Map<String, Object> refusals(String name) {
    long now = engine.timeMs();
    long to = now - now % 1000;
    Map<String, Long> byKind = new LinkedHashMap<>();
    for (RefusedException.Kind kind : RefusedException.Kind.values()) {
      byKind.put(kind.tag(), 0L);
    }
    long total = 0;
    for (PeriodStats second : engine.metricsHistory(name, to - REFUSAL_SECONDS * 1000L, to)) {
      total += second.refused();
      for (RefusedException.Kind kind : RefusedException.Kind.values()) {
        byKind.merge(kind.tag(), second.refused(kind), Long::sum);
      }
    }
    NodeStats stats = engine.stats(name);
    Map<String, Long> byOrigin = new TreeMap<>();
    for (String origin : stats.origins()) {
      stats.origin(origin).map(NodeStats::totalRefused).filter(count -> count > 0)
          .ifPresent(count -> byOrigin.put(origin, count));
    }
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("name", name);
    view.put("seconds", REFUSAL_SECONDS);
    view.put("total", total);
    view.put("byKind", byKind);
    view.put("byOrigin", byOrigin);
    return view;
  }

  /** {@code GET /api/resources/{name}/rules}: every rule with its kind, JSON and state. */
  Map<String, Object> rules(String name) {
    List<Map<String, Object>> rows = new ArrayList<>();
    List<RuleState> states = engine.ruleStates(name);
    List<CircuitBreaker> breakers = new ArrayList<>(engine.breakers(name));
    for (Rule rule : engine.rules(name)) {
      Map<String, Object> row = ruleRow(rule);
      for (RuleState state : states) {
        if (state.rule().equals(rule)) {
          row.put("state", state(state));
        }
      }
      if (rule instanceof FlowRule flow && flow.cluster() != null) {
        row.put("cluster", cluster(Objects.requireNonNull(flow.cluster())));
      }
      Optional<CircuitBreaker> breaker =
          breakers.stream().filter(b -> b.rule().equals(rule)).findFirst();
      breaker.ifPresent(b -> {
        row.put("state", breakerState(b));
        breakers.remove(b);
      });
      rows.add(row);
    }
    for (CircuitBreaker breaker : breakers) { // default breakers, for every resource
      Map<String, Object> row = ruleRow(breaker.rule());
      row.put("default", true);
      row.put("state", breakerState(breaker));
      rows.add(row);
    }
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("name", name);
    view.put("rules", rows);
    return view;
  }

  private Map<String, Object> ruleRow(Rule rule) {
    Map<String, Object> row = new LinkedHashMap<>();
    try {
      JsonNode document = json.readTree(RuleFormat.write(RuleSet.of(List.of(rule))));
      for (Map.Entry<String, JsonNode> field : document.properties()) {
        if (field.getValue().isArray()) {
          row.put("kind", field.getKey());
          row.put("rule", field.getValue().get(0));
        }
      }
    } catch (IllegalArgumentException | JacksonException unwritable) {
      row.put("kind", rule.getClass().getSimpleName());
      row.put("text", rule.toString());
    }
    row.put("state", null);
    return row;
  }

  private static Map<String, Object> state(RuleState state) {
    Map<String, Object> view = new LinkedHashMap<>();
    if (state instanceof RuleState.WarmUpState warmUp) {
      view.put("type", "warmUp");
      view.put("cold", warmUp.cold());
      view.put("storedTokens", warmUp.storedTokens());
      view.put("warningTokens", warmUp.warningTokens());
      view.put("maxTokens", warmUp.maxTokens());
      view.put("allowedQps", finite(warmUp.allowedQps()));
    } else if (state instanceof RuleState.AdaptiveConcurrencyState adaptive) {
      view.put("type", "adaptiveConcurrency");
      view.put("limit", adaptive.limit());
      view.put("inFlight", adaptive.inFlight());
      view.put("baselineRtMs", finite(adaptive.baselineRtMs()));
      view.put("lastRtMs", finite(adaptive.lastRtMs()));
      view.put("remeasuring", adaptive.remeasuring());
    } else if (state instanceof RuleState.PerValueState hot) {
      view.put("type", "hotValues");
      view.put("valuesTracked", hot.valuesTracked());
      view.put("limitedValues", hot.limitedValues().stream().map(String::valueOf).toList());
    }
    return view;
  }

  /** Who decides a cluster rule and how many instances share its limit now. */
  private Map<String, Object> cluster(ClusterMode mode) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("flowId", mode.flowId());
    view.put("threshold", mode.threshold().name());
    Optional<TokenService> service = engine.tokenService();
    view.put("service", service.map(Object::toString).orElse(null));
    OptionalInt instances = service.map(s -> s.instances(mode.flowId()))
        .orElse(OptionalInt.empty());
    view.put("instances", instances.isPresent() ? instances.getAsInt() : null);
    return view;
  }

  private Map<String, Object> breakerState(CircuitBreaker breaker) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("type", "breaker");
    view.put("state", breaker.state().name());
    long waitMs = breaker.retryAfter().toMillis();
    view.put("probeInMs", waitMs);
    view.put("probeAtMs", engine.timeMs() + waitMs);
    return view;
  }

  /** {@code GET /api/history}: the applied rule sets, newest first. */
  List<Map<String, Object>> history() {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (RuleSet.Revision revision : engine.ruleHistory()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("number", revision.number());
      row.put("appliedAt", revision.appliedAt().toString());
      row.put("source", revision.source());
      row.put("rules", revision.rules().size());
      row.put("resources", List.copyOf(revision.changedResources()));
      row.put("added", revision.added().size());
      row.put("removed", revision.removed().size());
      row.put("diff", revision.changes());
      rows.add(0, row);
    }
    return rows;
  }

  /** The revision with this number, if still in the history. */
  Optional<RuleSet.Revision> revision(long number) {
    return engine.ruleHistory().stream().filter(r -> r.number() == number).findFirst();
  }
}
