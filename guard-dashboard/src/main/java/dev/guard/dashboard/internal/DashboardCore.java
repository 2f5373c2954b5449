package dev.guard.dashboard.internal;

import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.redis.RedisFleet;
import dev.guard.spi.RuleSource;
import dev.guard.rules.RuleFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * The one request-handling core of both servers: routes a {@link DashboardRequest} to a page, a
 * static file or a JSON endpoint (docs/DASHBOARD.md lists them) after the access checks, and
 * returns the {@link DashboardResponse}. Stateless apart from the engine and the rule source;
 * thread-safe.
 *
 * <p>Checks, in order: static files (CSS, scripts) need nothing; on a loopback server the Host
 * header must name a loopback host (a page of another site that re-points its name at 127.0.0.1
 * cannot read the dashboard); pages and reads need an authenticated request unless reads are open;
 * every other method needs an authenticated request and the {@value #CSRF_HEADER} header, which a
 * cross-site form cannot send and a cross-site script cannot send without a CORS permission the
 * dashboard never gives.
 */
public final class DashboardCore {

  /** The header every state-changing API request must carry (any non-empty value). */
  public static final String CSRF_HEADER = "X-Guard-Dashboard";

  private static final String JSON = "application/json";

  private final Access access;
  private final Logins logins;
  private final ObjectMapper json = new ObjectMapper();
  private final EngineViews views;
  private final RuleEditor editor;
  private final GuardEngine engine;
  private final @Nullable FleetViews fleet;

  /**
   * Creates the core of one dashboard.
   *
   * @param engine the engine shown
   * @param access who may read and write
   * @param source where edits are written, or null for the dashboard's own memory source
   * @param fleet the engine's fleet, or null when it shows no fleet
   */
  public DashboardCore(GuardEngine engine, Access access, RuleSource.@Nullable Writable source,
      @Nullable RedisFleet fleet) {
    this.engine = engine;
    this.access = access;
    this.logins = new Logins(access);
    this.views = new EngineViews(engine, json);
    this.editor = new RuleEditor(engine, source);
    this.fleet = fleet == null ? null : new FleetViews(fleet);
  }

  /**
   * Answers one request; never throws for a bad request (it answers 4xx).
   *
   * @param request the request
   * @param loopbackHostsOnly whether the Host header must name a loopback host (a server bound
   *     to a loopback address)
   * @return the response
   */
  public DashboardResponse handle(DashboardRequest request, boolean loopbackHostsOnly) {
    String path = request.path().isEmpty() ? "/" : request.path();
    Optional<DashboardResponse> file = WebFiles.asset(path);
    if (file.isPresent()) {
      return file.get();
    }
    if (loopbackHostsOnly && !LoopbackHost.matches(request.header("Host"))) {
      return DashboardResponse.text(403, "Host must be localhost, a 127.x.x.x address or [::1]"
          + " (with or without a port) on a dashboard that listens on loopback, was \""
          + request.header("Host") + "\"");
    }
    Optional<DashboardResponse> throttled = logins.throttled(request, path);
    if (throttled.isPresent()) {
      return throttled.get();
    }
    try {
      return switch (path) {
        case "/login" -> logins.login(request);
        case "/logout" -> logins.logout(request);
        default -> path.startsWith("/api/") ? api(request, path) : logins.page(request, path);
      };
    } catch (IOException | UncheckedIOException failed) {
      return error(500, "could not read or store: " + failed.getMessage());
    } catch (RuntimeException failed) { // a source or the engine failed: answer, do not hang up
      return error(500, failed.getClass().getSimpleName() + ": " + failed.getMessage());
    }
  }

  private DashboardResponse api(DashboardRequest request, String path) throws IOException {
    boolean read = request.method().equals("GET");
    boolean authenticated = access.authenticated(request);
    if (!authenticated && !(read && access.openReads())) {
      return logins.unauthorized(jsonBody(401, Map.of("error",
          read ? "authentication required" : "changes need the access token or credentials")));
    }
    Optional<DashboardResponse> forged = read ? Optional.empty() : Logins.crossSite(request);
    if (forged.isPresent()) {
      return forged.get();
    }
    if (!ApiQuery.isEndpoint(path)) {
      return error(404, "no endpoint " + path);
    }
    if (!ApiQuery.allows(request.method(), path)) {
      return error(405, request.method() + " is not allowed on " + path);
    }
    Optional<ApiQuery.Problem> problem = ApiQuery.problem(request.method(), path,
        request.query(), this::knownResource);
    if (problem.isPresent()) {
      return jsonBody(400, problem.get().body());
    }
    return route(request, path);
  }

  private boolean knownResource(String name) {
    return engine.resources().contains(name) || engine.ruleSet().resources().contains(name);
  }

  /** An endpoint whose query passed {@link ApiQuery}: every parameter it reads is valid. */
  private DashboardResponse route(DashboardRequest request, String path) throws IOException {
    Map<String, String> query = request.query();
    String name = query.getOrDefault("name", "");
    return switch (request.method() + " " + path) {
      case "GET /api/overview" -> ok(withFleet(views.overview(editor.sourceName())));
      case "GET /api/fleet" -> fleet();
      case "GET /api/resources" ->
          ok(views.resources(query.getOrDefault("sort", ApiQuery.SORTS.get(0))));
      case "GET /api/resource" -> ok(views.resource(name));
      case "GET /api/resource/metrics" -> ok(views.metrics(name, query.containsKey("seconds")
          ? ApiQuery.seconds(query.getOrDefault("seconds", "")) : EngineViews.DEFAULT_SECONDS));
      case "GET /api/resource/refusals" -> ok(views.refusals(name));
      case "GET /api/resource/rules" -> ok(views.rules(name));
      case "GET /api/rules" -> rulesInForce();
      case "PUT /api/rules" -> writeRules(request);
      case "GET /api/history" -> ok(views.history());
      case "GET /api/history/rules" -> withRevision(query, revision -> document(revision.rules()));
      case "POST /api/history/rollback" ->
          withRevision(query, revision -> applied(revision.rules()));
      default -> throw new IllegalStateException("no route for " + request.method() + " " + path);
    };
  }

  /** The overview with the fleet's name ({@code fleet}: null when the dashboard shows none). */
  private Map<String, Object> withFleet(Map<String, Object> overview) {
    Map<String, Object> view = new java.util.LinkedHashMap<>(overview);
    FleetViews shown = fleet;
    view.put("fleet", shown == null ? null : shown.name());
    return view;
  }

  private DashboardResponse fleet() {
    FleetViews shown = fleet;
    return shown == null
        ? error(404, "this dashboard shows no fleet (GuardDashboard.builder(engine).fleet(..))")
        : ok(shown.view());
  }

  private DashboardResponse withRevision(Map<String, String> query,
      java.util.function.Function<RuleSet.Revision, DashboardResponse> answer) {
    long number = ApiQuery.revision(query.getOrDefault("revision", "")).orElse(-1L);
    return views.revision(number).map(answer)
        .orElseGet(() -> error(404, "revision " + number + " is not in the rule history"));
  }

  private DashboardResponse document(RuleSet rules) {
    try {
      return DashboardResponse.of(200, JSON, RuleFormat.write(rules).getBytes(StandardCharsets.UTF_8));
    } catch (IllegalArgumentException unwritable) {
      return error(409, "the rules in force cannot be written as JSON: " + unwritable.getMessage());
    }
  }

  /**
   * The rules in force with an {@code ETag} naming the latest revision, read before the rules: a
   * change in between makes the tag older than the document, so a save made with it is refused
   * (never the other way round).
   */
  private DashboardResponse rulesInForce() {
    String tag = revisionTag();
    DashboardResponse answer = document(engine.ruleSet());
    return answer.status() == 200 ? answer.with("ETag", tag) : answer;
  }

  private String revisionTag() {
    List<RuleSet.Revision> history = engine.ruleHistory();
    return "\"r" + (history.isEmpty() ? 0 : history.get(history.size() - 1).number()) + "\"";
  }

  private DashboardResponse writeRules(DashboardRequest request) throws IOException {
    String type = request.header("Content-Type");
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith(JSON)) {
      return error(415, "a rule document is sent as " + JSON);
    }
    String body = request.bodyText();
    if (body == null) {
      return error(413, "a rule document is at most " + RuleFormat.MAX_DOCUMENT_CHARS
          + " characters");
    }
    RuleSet rules;
    try {
      rules = RuleFormat.parse(body);
    } catch (InvalidRulesException invalid) {
      return refused(invalid.errors());
    }
    String expected = request.header("If-Match");
    if (expected == null) {
      return applied(rules);
    }
    synchronized (editor) {
      String current = revisionTag();
      if (!expected.trim().equals(current)) {
        return error(412, "the rules changed since they were read (read at " + expected.trim()
            + ", now " + current + "): read them again and repeat the change");
      }
      return applied(rules);
    }
  }

  private DashboardResponse applied(RuleSet rules) {
    try {
      return ok(editor.write(rules));
    } catch (InvalidRulesException invalid) {
      return refused(invalid.errors());
    }
  }

  private DashboardResponse refused(List<InvalidRulesException.Error> errors) {
    List<Map<String, String>> list = errors.stream()
        .map(e -> Map.of("path", e.path(), "message", e.message())).toList();
    return jsonBody(422, list);
  }

  private DashboardResponse error(int status, String message) {
    return jsonBody(status, Map.of("error", message));
  }

  private DashboardResponse ok(Object body) {
    return jsonBody(200, body);
  }

  private DashboardResponse jsonBody(int status, Object body) {
    return DashboardResponse.json(status, body);
  }
}
