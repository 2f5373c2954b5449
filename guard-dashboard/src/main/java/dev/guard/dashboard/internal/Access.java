package dev.guard.dashboard.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Who may do what (docs/DASHBOARD.md, "Security"). A request is authenticated by the access token
 * ({@code Authorization: Bearer}), by the basic credentials ({@code Authorization: Basic}), or by
 * the cookie of a live {@link Sessions session} a login opened. Without a configured secret the
 * dashboard has a random access token of its own, so rule changes always need a secret; reads are
 * then open, which the server allows only when it listens on a loopback address ({@link
 * #openReads}). Every wrong token or credential counts against the client's address in the {@link
 * LoginThrottle}.
 *
 * <p>Secrets are compared in constant time: both sides are hashed with SHA-256 and the digests
 * compared with {@link MessageDigest#isEqual}, so neither the content nor the length of a secret
 * shows in the time a refusal takes. A session cookie holds a random key, never the token itself.
 */
public final class Access {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte @Nullable [] tokenDigest;
  private final byte @Nullable [] credentialsDigest;
  private final String loginToken;
  private final String cookieName;
  private final boolean openReads;
  private final Sessions sessions;
  private final LoginThrottle throttle;

  private Access(@Nullable String token, @Nullable String credentials, boolean openReads,
      LongSupplier nowMs) {
    this.loginToken = token != null ? token : randomKey();
    this.tokenDigest = digest(loginToken);
    this.credentialsDigest = credentials == null ? null : digest(credentials);
    this.cookieName = "guard-dashboard-" + HexFormat.of().formatHex(digest(randomKey()), 0, 4);
    this.openReads = openReads;
    this.sessions = new Sessions(nowMs);
    this.throttle = new LoginThrottle(nowMs);
  }

  /**
   * Creates the access rules of one dashboard.
   *
   * @param token the configured access token, or null for a generated one
   * @param user the basic-authentication user, or null
   * @param password the basic-authentication password, or null
   * @param openReads whether unauthenticated reads are allowed (loopback only, no secret set)
   * @param nowMs the dashboard's clock in milliseconds (sessions and the login throttle)
   * @return the rules
   */
  public static Access of(@Nullable String token, @Nullable String user,
      @Nullable String password, boolean openReads, LongSupplier nowMs) {
    String credentials = user == null || password == null ? null : user + ":" + password;
    return new Access(token, credentials, openReads, nowMs);
  }

  /** 32 random bytes, URL-safe Base64. */
  static String randomKey() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The SHA-256 digest of a secret's UTF-8 bytes. */
  static byte[] digest(String secret) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException impossible) {
      throw new IllegalStateException("SHA-256 is missing", impossible);
    }
  }

  private static boolean matches(byte @Nullable [] expected, @Nullable String candidate) {
    return expected != null && candidate != null
        && MessageDigest.isEqual(expected, digest(candidate));
  }

  /** Whether unauthenticated requests may read. */
  boolean openReads() {
    return openReads;
  }

  /** Whether basic credentials are configured (the browser may then be asked for them). */
  boolean basicConfigured() {
    return credentialsDigest != null;
  }

  /** The token that logs a browser in: the configured one, or the generated one. */
  public String loginToken() {
    return loginToken;
  }

  /** Whole seconds the client must wait before its next secret is checked; 0 if none. */
  long refusedSeconds(DashboardRequest request) {
    return throttle.waitSeconds(request.client());
  }

  /** Whether a login form's or query's token is the access token; counted for the client. */
  boolean tokenMatches(DashboardRequest request, @Nullable String candidate) {
    return counted(request, matches(tokenDigest, candidate));
  }

  private boolean counted(DashboardRequest request, boolean matched) {
    if (matched) {
      throttle.succeeded(request.client());
    } else {
      throttle.failed(request.client());
    }
    return matched;
  }

  /**
   * Whether the request carries a valid token, credentials or live session cookie. An {@code
   * Authorization} header that matches neither the token nor the credentials counts as a failed
   * login of the client unless the request has a live session: behind an application's own
   * security (the dashboard mounted in a Spring Boot application) every request of a logged-in
   * browser carries the application's credentials, which are not the dashboard's to judge.
   */
  boolean authenticated(DashboardRequest request) {
    String authorization = request.header("Authorization");
    boolean session = sessions.use(cookie(request.header("Cookie")));
    if (authorization == null || authorization.isBlank()) {
      return session;
    }
    int space = authorization.indexOf(' ');
    String scheme = space < 0 ? "" : authorization.substring(0, space).toLowerCase(Locale.ROOT);
    String value = space < 0 ? "" : authorization.substring(space + 1).trim();
    boolean valid = scheme.equals("bearer") && matches(tokenDigest, value)
        || scheme.equals("basic") && matches(credentialsDigest, decodeBasic(value));
    if (valid) {
      return counted(request, true);
    }
    return session || counted(request, false); // with a session, the header is the application's
  }

  private static @Nullable String decodeBasic(String value) {
    try {
      return new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException malformed) {
      return null;
    }
  }

  private @Nullable String cookie(@Nullable String header) {
    if (header == null) {
      return null;
    }
    for (String part : header.split(";")) {
      String pair = part.trim();
      if (pair.startsWith(cookieName + "=")) {
        return pair.substring(cookieName.length() + 1);
      }
    }
    return null;
  }

  /**
   * Opens a session; returns the Set-Cookie value holding its key: HttpOnly, SameSite=Strict,
   * Secure over HTTPS, and without an expiry (the server ends the session).
   */
  String openSession(boolean secure) {
    return cookieName + "=" + sessions.open() + "; Path=/; HttpOnly; SameSite=Strict"
        + (secure ? "; Secure" : "");
  }

  /** Ends the request's session, if any; returns the Set-Cookie value that clears the cookie. */
  String closeSession(DashboardRequest request) {
    sessions.close(cookie(request.header("Cookie")));
    return cookieName + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"
        + (request.secure() ? "; Secure" : "");
  }
}
