package dev.guard.dashboard.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The query parameters of the JSON API (docs/DASHBOARD.md, "JSON API"): which parameters each
 * endpoint takes and what each may hold. A request with a parameter its endpoint does not take,
 * a required one missing, or a value out of range is answered 400 with the {@link Problem}
 * (parameter, value, message), never with a silent default.
 */
final class ApiQuery {

  /** The orders of {@code GET api/resources}; the first is the default. */
  static final List<String> SORTS = List.of("passed", "refused", "rt", "name");

  /** The parameters each endpoint takes, by method and path ({@code "GET /api/resources"}). */
  private static final Map<String, List<String>> PARAMETERS = Map.ofEntries(
      Map.entry("GET /api/overview", List.of()),
      Map.entry("GET /api/resources", List.of("sort")),
      Map.entry("GET /api/resource", List.of("name")),
      Map.entry("GET /api/resource/metrics", List.of("name", "seconds")),
      Map.entry("GET /api/resource/refusals", List.of("name")),
      Map.entry("GET /api/resource/rules", List.of("name")),
      Map.entry("GET /api/rules", List.of()),
      Map.entry("PUT /api/rules", List.of()),
      Map.entry("GET /api/history", List.of()),
      Map.entry("GET /api/fleet", List.of()),
      Map.entry("GET /api/history/rules", List.of("revision")),
      Map.entry("POST /api/history/rollback", List.of("revision")));

  private ApiQuery() {}

  /** Whether the path is an endpoint of the API, whatever the method. */
  static boolean isEndpoint(String path) {
    return PARAMETERS.keySet().stream().anyMatch(route -> route.endsWith(" " + path));
  }

  /** Whether the endpoint answers the method. */
  static boolean allows(String method, String path) {
    return PARAMETERS.containsKey(method + " " + path);
  }

  /**
   * Checks the query of a request to an endpoint.
   *
   * @param method the method, which the endpoint {@link #allows}
   * @param path the endpoint's path
   * @param query the decoded query parameters
   * @param knownResource whether a name is a resource the engine tracks or has rules for
   * @return the first problem, if any
   */
  static Optional<Problem> problem(String method, String path, Map<String, String> query,
      Predicate<String> knownResource) {
    List<String> taken = PARAMETERS.getOrDefault(method + " " + path, List.of());
    for (Map.Entry<String, String> param : query.entrySet()) {
      if (!taken.contains(param.getKey())) {
        return Optional.of(new Problem(param.getKey(), param.getValue(), "parameter \""
            + param.getKey() + "\" is not taken by " + path.substring(1)
            + (taken.isEmpty() ? " (it takes none)" : " (it takes " + String.join(", ", taken)
            + ")") + ", was \"" + param.getValue() + "\""));
      }
    }
    for (String name : taken) {
      Optional<String> message = check(name, query.get(name), knownResource);
      if (message.isPresent()) {
        return Optional.of(new Problem(name, query.get(name), message.get()));
      }
    }
    return Optional.empty();
  }

  private static Optional<String> check(
      String parameter, @Nullable String value, Predicate<String> knownResource) {
    boolean ok = switch (parameter) {
      case "sort" -> value == null || SORTS.contains(value);
      case "seconds" -> value == null || seconds(value) > 0;
      case "name" -> value != null && knownResource.test(value);
      default -> value != null && revision(value).isPresent(); // "revision"
    };
    if (ok) {
      return Optional.empty();
    }
    String was = value == null ? ", was missing" : ", was \"" + value + "\"";
    return Optional.of(switch (parameter) {
      case "sort" -> "sort must be one of " + String.join(", ", SORTS) + was;
      case "seconds" -> "seconds must be a whole number from 1 to " + EngineViews.MAX_SECONDS + was;
      case "name" -> "name must name a resource the engine tracks or has rules for" + was;
      default -> "revision must be a revision number" + was;
    });
  }

  /** The {@code seconds} value, or 0 if it is not a whole number from 1 to the maximum. */
  static int seconds(String value) {
    boolean digits = value.chars().allMatch(c -> c >= '0' && c <= '9');
    if (value.isEmpty() || value.length() > 4 || !digits) {
      return 0;
    }
    int seconds = Integer.parseInt(value);
    return seconds <= EngineViews.MAX_SECONDS ? seconds : 0;
  }

  /** The {@code revision} value, if it is a revision number. */
  static Optional<Long> revision(String value) {
    try {
      return Optional.of(Long.parseLong(value));
    } catch (NumberFormatException malformed) {
      return Optional.empty();
    }
  }

  /**
   * A parameter the API refuses.
   *
   * @param parameter the parameter's name
   * @param value its value as sent, or null when missing
   * @param message what is wrong, naming both
   */
  record Problem(String parameter, @Nullable String value, String message) {

    /** The JSON error body: {@code error}, {@code parameter} and {@code value}. */
    Map<String, @Nullable Object> body() {
      Map<String, @Nullable Object> body = new LinkedHashMap<>();
      body.put("error", message);
      body.put("parameter", parameter);
      body.put("value", value);
      return body;
    }
  }
}
