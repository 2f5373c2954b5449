package dev.guard.dashboard.internal;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * Signing in and out, and the pages behind it (docs/DASHBOARD.md, "Security"): the login form
 * ({@code POST /login}), a page opened with {@code ?token=}, {@code POST /logout}, the 401 that
 * asks for a secret, and the 429 of the {@link LoginThrottle}. Stateless apart from {@link
 * Access}; thread-safe.
 */
final class Logins {

  private static final String WRONG_TOKEN = "That token is not the dashboard's access token.";

  private final Access access;

  Logins(Access access) {
    this.access = access;
  }

  /**
   * The 429 for a request that carries a secret (an {@code Authorization} header, a {@code
   * token} parameter, a login form) while its client is refused, if it is.
   */
  Optional<DashboardResponse> throttled(DashboardRequest request, String path) {
    boolean carriesSecret = request.header("Authorization") != null
        || request.query().containsKey("token")
        || path.equals("/login") && request.method().equals("POST");
    long seconds = carriesSecret ? access.refusedSeconds(request) : 0;
    if (seconds == 0) {
      return Optional.empty();
    }
    String message = "Too many failed logins from " + request.client() + ": try again in "
        + seconds + " s.";
    DashboardResponse body = path.startsWith("/api/")
        ? DashboardResponse.json(429, Map.of("error", message))
        : WebFiles.login(message);
    return Optional.of(new DashboardResponse(429, body.headers(), body.body())
        .with("Retry-After", Long.toString(seconds)));
  }

  /** {@code /login}: the form on GET, a new session for the right token on POST. */
  DashboardResponse login(DashboardRequest request) throws IOException {
    if (!request.method().equals("POST")) {
      return WebFiles.login("");
    }
    String body = request.bodyText();
    String token = body == null ? null : DashboardRequest.parseQuery(body).get("token");
    if (!access.tokenMatches(request, token)) {
      return unauthorized(WebFiles.login(WRONG_TOKEN));
    }
    return DashboardResponse.redirect("./")
        .with("Set-Cookie", access.openSession(request.secure()));
  }

  /** {@code POST /logout}: ends the session and clears its cookie; needs the CSRF header. */
  DashboardResponse logout(DashboardRequest request) {
    if (!request.method().equals("POST")) {
      return DashboardResponse.json(405, Map.of("error", "logout is a POST"));
    }
    Optional<DashboardResponse> forged = crossSite(request);
    if (forged.isPresent()) {
      return forged.get();
    }
    return new DashboardResponse(204, Map.of(), new byte[0])
        .with("Set-Cookie", access.closeSession(request));
  }

  /** The 403 for a state-changing request without the {@value DashboardCore#CSRF_HEADER} header. */
  static Optional<DashboardResponse> crossSite(DashboardRequest request) {
    String marker = request.header(DashboardCore.CSRF_HEADER);
    return marker == null || marker.isBlank()
        ? Optional.of(DashboardResponse.json(403, Map.of("error",
            "changes need the " + DashboardCore.CSRF_HEADER + " header")))
        : Optional.empty();
  }

  /** A page, after the access checks; {@code ?token=} logs in and redirects without it. */
  DashboardResponse page(DashboardRequest request, String path) {
    String name = path.equals("/") ? "/index.html" : path;
    if (!WebFiles.isPage(name)) {
      return DashboardResponse.text(404, "not found: " + path);
    }
    if (!request.method().equals("GET")) {
      return DashboardResponse.text(405, "pages are read with GET");
    }
    String token = request.query().get("token");
    if (token != null) {
      if (!access.tokenMatches(request, token)) {
        return unauthorized(WebFiles.login(WRONG_TOKEN));
      }
      return DashboardResponse.redirect(withoutToken(name, request.query()))
          .with("Set-Cookie", access.openSession(request.secure()));
    }
    if (!access.authenticated(request) && !access.openReads()) {
      return unauthorized(WebFiles.login(""));
    }
    return WebFiles.page(name);
  }

  private static String withoutToken(String page, Map<String, String> query) {
    StringBuilder location =
        new StringBuilder(page.equals("/index.html") ? "./" : page.substring(1));
    char separator = '?';
    for (Map.Entry<String, String> param : query.entrySet()) {
      if (!param.getKey().equals("token")) {
        location.append(separator).append(encode(param.getKey())).append('=')
            .append(encode(param.getValue()));
        separator = '&';
      }
    }
    return location.toString();
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  /** A 401 with this body, asking for the configured kind of secret. */
  DashboardResponse unauthorized(DashboardResponse body) {
    DashboardResponse refused = new DashboardResponse(401, body.headers(), body.body());
    return access.basicConfigured()
        ? refused.with("WWW-Authenticate", "Basic realm=\"guard dashboard\", charset=\"UTF-8\"")
        : refused.with("WWW-Authenticate", "Bearer realm=\"guard dashboard\"");
  }
}
