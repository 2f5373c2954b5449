package dev.guard.dashboard.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Who may do what (docs/DASHBOARD.md, "Security"). A request is authenticated by the access token
 * ({@code Authorization: Bearer}), by the basic credentials ({@code Authorization: Basic}), or by
 * the session cookie a login sets. Without a configured secret the dashboard has a random access
 * token of its own, so rule changes always need a secret; reads are then open, which the server
 * allows only when it listens on a loopback address ({@link #openReads}).
 *
 * <p>Secrets are compared in constant time: both sides are hashed with SHA-256 and the digests
 * compared with {@link MessageDigest#isEqual}, so neither the content nor the length of a secret
 * shows in the time a refusal takes. The session cookie holds a random key made at start-up, never
 * the token itself.
 */
public final class Access {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte @Nullable [] tokenDigest;
  private final byte @Nullable [] credentialsDigest;
  private final String loginToken;
  private final byte[] sessionDigest;
  private final String sessionKey;
  private final String cookieName;
  private final boolean openReads;

  private Access(@Nullable String token, @Nullable String credentials, boolean openReads) {
    this.loginToken = token != null ? token : randomKey();
    this.tokenDigest = digest(loginToken);
    this.credentialsDigest = credentials == null ? null : digest(credentials);
    this.sessionKey = randomKey();
    this.sessionDigest = digest(sessionKey);
    this.cookieName = "guard-dashboard-" + HexFormat.of().formatHex(sessionDigest, 0, 4);
    this.openReads = openReads;
  }

  /**
   * Creates the access rules of one dashboard.
   *
   * @param token the configured access token, or null for a generated one
   * @param user the basic-authentication user, or null
   * @param password the basic-authentication password, or null
   * @param openReads whether unauthenticated reads are allowed (loopback only, no secret set)
   * @return the rules
   */
  public static Access of(
      @Nullable String token, @Nullable String user, @Nullable String password,
      boolean openReads) {
    String credentials = user == null || password == null ? null : user + ":" + password;
    return new Access(token, credentials, openReads);
  }

  private static String randomKey() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static byte[] digest(String secret) {
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

  /** Whether a login form's or query's token is the access token. */
  boolean tokenMatches(@Nullable String candidate) {
    return matches(tokenDigest, candidate);
  }

  /** Whether the request carries a valid token, credentials or session cookie. */
  boolean authenticated(DashboardRequest request) {
    String authorization = request.header("Authorization");
    if (authorization != null) {
      int space = authorization.indexOf(' ');
      String scheme = space < 0 ? "" : authorization.substring(0, space).toLowerCase(Locale.ROOT);
      String value = space < 0 ? "" : authorization.substring(space + 1).trim();
      if (scheme.equals("bearer") && tokenMatches(value)) {
        return true;
      }
      if (scheme.equals("basic") && matches(credentialsDigest, decodeBasic(value))) {
        return true;
      }
    }
    return matches(sessionDigest, cookie(request.header("Cookie")));
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

  /** The Set-Cookie value of a new session: HttpOnly, SameSite=Strict, Secure over HTTPS. */
  String sessionCookie(boolean secure) {
    return cookieName + "=" + sessionKey + "; Path=/; HttpOnly; SameSite=Strict"
        + (secure ? "; Secure" : "");
  }
}
