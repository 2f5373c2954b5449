package dev.guard.dashboard.internal;

import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The signed-in browsers of one dashboard (docs/DASHBOARD.md, "Sessions"). A login opens a
 * session under a new random key, which the browser holds in its cookie; the server keeps only
 * the key's SHA-256 digest, so the table is looked up by digest and reveals no key. A session
 * ends after {@link #IDLE} without a request, {@link #LIFETIME} after it was opened however busy
 * it is, at logout, or when {@value #MAX} newer sessions pushed it out (the one used least
 * recently goes first). Time is the dashboard's clock in milliseconds; elapsed times are compared
 * by subtraction. Thread-safe (one lock; sessions are looked up once per request).
 */
final class Sessions {

  /** How long a session lasts without a request. */
  static final Duration IDLE = Duration.ofMinutes(30);

  /** How long a session lasts at most. */
  static final Duration LIFETIME = Duration.ofHours(12);

  /** The most sessions kept at once. */
  static final int MAX = 1000;

  private final LongSupplier nowMs;
  private final Map<String, Session> byDigest = new BoundedLru<>(MAX);

  Sessions(LongSupplier nowMs) {
    this.nowMs = nowMs;
  }

  private static String key(String secret) {
    return HexFormat.of().formatHex(Access.digest(secret));
  }

  /** Opens a session; returns its key, for the cookie. */
  synchronized String open() {
    String secret = Access.randomKey();
    long now = nowMs.getAsLong();
    byDigest.put(key(secret), new Session(now, now));
    return secret;
  }

  /** Whether a cookie's key names a live session; a live one counts as used now. */
  synchronized boolean use(@Nullable String secret) {
    if (secret == null) {
      return false;
    }
    String key = key(secret);
    Session session = byDigest.get(key);
    long now = nowMs.getAsLong();
    if (session == null) {
      return false;
    }
    if (now - session.lastUsedMs() >= IDLE.toMillis()
        || now - session.openedMs() >= LIFETIME.toMillis()) {
      byDigest.remove(key);
      return false;
    }
    byDigest.put(key, new Session(session.openedMs(), now));
    return true;
  }

  /** Ends the session a cookie's key names, if any. */
  synchronized void close(@Nullable String secret) {
    if (secret != null) {
      byDigest.remove(key(secret));
    }
  }

  /** How many sessions are kept (live or not yet found expired). */
  synchronized int size() {
    return byDigest.size();
  }

  private record Session(long openedMs, long lastUsedMs) {}
}
