package dev.guard.spring.boot;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.rules.RuleFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/**
 * The actuator endpoint {@code guard}: resources and their live figures, the rules in force, the
 * breakers and the rule history; and, when the endpoint's access is {@code unrestricted}, writes
 * (force a breaker open or closed, reset it, apply a rule set, roll back, reload {@code
 * guard.rules}). Read-only unless the application grants more ({@code
 * management.endpoint.guard.access=unrestricted}); who may call it is the application's security,
 * as for any endpoint. docs/SPRING-BOOT.md, "Actuator", shows every operation.
 */
@Endpoint(id = "guard", defaultAccess = Access.READ_ONLY)
public class GuardEndpoint {

  /** Jackson, loaded at the first read, not when the endpoint is created at start-up. */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private final GuardEngine engine;
  private final @Nullable GuardRules rules;
  private final @Nullable Supplier<?> fleet;

  /**
   * Creates the endpoint.
   *
   * @param engine the engine shown
   * @param rules where its rules come from, if the starter installed them
   * @param fleet reads the view of the fleet the instance joined ({@code RedisFleet.view()}), or
   *     null when it joined none
   */
  public GuardEndpoint(GuardEngine engine, @Nullable GuardRules rules,
      @Nullable Supplier<?> fleet) {
    this.engine = engine;
    this.rules = rules;
    this.fleet = fleet;
  }

  /**
   * Returns everything: resources with figures and breakers, rules, history, and the fleet when
   * the instance joined one.
   *
   * @return the view, as JSON
   */
  @ReadOperation
  public Map<String, Object> guard() {
    Map<String, Object> view = new LinkedHashMap<>();
    Map<String, Object> resources = new LinkedHashMap<>();
    for (String resource : new TreeSet<>(engine.resources())) {
      resources.put(resource, resource(engine, resource));
    }
    view.put("resources", resources);
    view.put("rules", document(engine.ruleSet()));
    view.put("source", rules == null ? null : rules.source().orElse(null));
    List<Object> history = new ArrayList<>();
    for (RuleSet.Revision revision : engine.ruleHistory()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("revision", revision.number());
      entry.put("source", revision.source());
      entry.put("changes", revision.changes().toString());
      history.add(entry);
    }
    view.put("history", history);
    Supplier<?> fleetView = fleet;
    if (fleetView != null) {
      view.put("fleet", fleetView.get());
    }
    return view;
  }

  /**
   * Returns one resource: figures, rules and breakers.
   *
   * @param resource the resource
   * @return the resource's view
   */
  @ReadOperation
  public Map<String, Object> resource(@Selector String resource) {
    Map<String, Object> view = resource(engine, resource);
    view.put("rules", engine.rules(resource).stream().map(Object::toString).toList());
    return view;
  }

  /**
   * Changes the rules: {@code action} is {@code apply} (with {@code rules}, a rule document as
   * JSON text: the actuator reads a request body of string fields), {@code rollBack} (with
   * {@code revision}) or {@code reload} (reads {@code guard.rules} again).
   *
   * @param action what to do
   * @param rules the document to apply
   * @param revision the revision to roll back to
   * @return the outcome
   */
  @WriteOperation
  public Map<String, Object> rules(String action, @Nullable String rules,
      @Nullable Long revision) {
    Map<String, Object> outcome = new LinkedHashMap<>();
    outcome.put("action", action);
    try {
      switch (action) {
        case "apply" -> {
          if (rules == null) {
            return failure(outcome, "rules: must be a rule document, was nothing");
          }
          revision(outcome, engine.apply(RuleFormat.parse(rules)));
        }
        case "rollBack" -> {
          if (revision == null) {
            return failure(outcome, "revision: must be a revision number, was nothing");
          }
          revision(outcome, engine.rollBack(revision));
        }
        case "reload" -> {
          boolean reloaded = this.rules != null && this.rules.reload();
          outcome.put("applied", reloaded);
          if (!reloaded) {
            outcome.put("error", "guard.rules were not reloaded: they are not the rules' source, "
                + "or they are not valid (the engine's listeners heard why)");
          }
        }
        default -> {
          return failure(outcome, "action: must be apply, rollBack or reload, was '" + action + "'");
        }
      }
    } catch (InvalidRulesException invalid) {
      outcome.put("applied", false);
      outcome.put("errors", invalid.errors().stream().map(Object::toString).toList());
    } catch (IllegalArgumentException wrong) {
      return failure(outcome, String.valueOf(wrong.getMessage()));
    }
    return outcome;
  }

  /**
   * Forces a resource's circuit breakers open or closed, or resets them: {@code breaker} is
   * {@code open}, {@code closed} or {@code reset}; {@code index} picks one breaker by its position
   * (all of the resource's when left out).
   *
   * @param resource the resource
   * @param breaker what to do
   * @param index which breaker
   * @return the breakers' states after
   */
  @WriteOperation
  public Map<String, Object> breaker(@Selector String resource, String breaker,
      @Nullable Integer index) {
    Map<String, Object> outcome = new LinkedHashMap<>();
    outcome.put("resource", resource);
    outcome.put("breaker", breaker);
    List<CircuitBreaker> breakers = engine.breakers(resource);
    if (breakers.isEmpty()) {
      return failure(outcome, "resource: '" + resource + "' has no circuit breaker");
    }
    if (index != null && (index < 0 || index >= breakers.size())) {
      return failure(outcome, "index: must be in [0, " + (breakers.size() - 1) + "], was " + index);
    }
    List<CircuitBreaker> chosen = index == null ? breakers : List.of(breakers.get(index));
    for (CircuitBreaker each : chosen) {
      switch (breaker) {
        case "open" -> each.forceOpen();
        case "closed" -> each.forceClosed();
        case "reset" -> each.reset();
        default -> {
          return failure(outcome, "breaker: must be open, closed or reset, was '" + breaker + "'");
        }
      }
    }
    outcome.put("breakers", breakers(breakers));
    return outcome;
  }

  private static Map<String, Object> failure(Map<String, Object> outcome, String error) {
    outcome.put("applied", false);
    outcome.put("error", error);
    return outcome;
  }

  private static void revision(Map<String, Object> outcome, Optional<RuleSet.Revision> revision) {
    outcome.put("applied", true);
    outcome.put("revision", revision.map(RuleSet.Revision::number).orElse(null));
  }

  static Map<String, Object> resource(GuardEngine engine, String resource) {
    NodeStats stats = engine.stats(resource);
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("passQps", stats.passQps());
    view.put("refusedQps", stats.refusedQps());
    view.put("successQps", stats.successQps());
    view.put("exceptionQps", stats.exceptionQps());
    view.put("averageRtMs", stats.averageRt());
    view.put("concurrency", stats.concurrency());
    view.put("totalPassed", stats.totalPass());
    view.put("totalRefused", stats.totalRefused());
    view.put("totalExceptions", stats.totalException());
    view.put("breakers", breakers(engine.breakers(resource)));
    return view;
  }

  static List<Object> breakers(List<CircuitBreaker> breakers) {
    List<Object> views = new ArrayList<>();
    for (CircuitBreaker breaker : breakers) {
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("state", state(breaker.state()));
      view.put("rule", breaker.rule().toString());
      view.put("retryAfterMs", breaker.retryAfter().toMillis());
      views.add(view);
    }
    return views;
  }

  static String state(CircuitBreaker.State state) {
    return state.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private static Object document(RuleSet rules) {
    String written;
    try {
      written = RuleFormat.write(rules);
    } catch (InvalidRulesException unwritable) { // rules set in code may be too large to write
      return Map.of("unwritable", unwritable.getMessage());
    }
    try {
      return Json.MAPPER.readValue(written, Map.class);
    } catch (JacksonException e) {
      return written;
    }
  }
}
