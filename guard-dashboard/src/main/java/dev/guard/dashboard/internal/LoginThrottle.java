package dev.guard.dashboard.internal;

import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Failed logins counted per client address (docs/DASHBOARD.md, "Failed logins"). A failure is a
 * wrong access token (login form, {@code ?token=}) or a wrong {@code Authorization} header. The
 * {@value #FREE_FAILURES}th failure in a row refuses the address for 1 second, and each later one
 * for twice as long as the one before, up to {@value #MAX_WAIT_SECONDS} seconds; while refused,
 * its attempts are answered 429 without being checked (and are not counted). A
 * successful login forgets the address; so does an hour without failures. At most {@value
 * #MAX_CLIENTS} addresses are remembered: beyond that, the one that failed least recently is
 * forgotten. Time is the dashboard's clock in milliseconds. Thread-safe (one lock, taken only when
 * a request carries a secret).
 */
final class LoginThrottle {

  /** The failure in a row that first refuses the address (for 1 second). */
  static final int FREE_FAILURES = 5;

  /** The longest an address is refused. */
  static final long MAX_WAIT_SECONDS = 900;

  /** How long without a failure until an address starts from zero again. */
  static final Duration FORGET_AFTER = Duration.ofHours(1);

  /** The most addresses remembered at once. */
  static final int MAX_CLIENTS = 10_000;

  private final LongSupplier nowMs;
  private final Map<String, Failures> clients = new BoundedLru<>(MAX_CLIENTS);

  LoginThrottle(LongSupplier nowMs) {
    this.nowMs = nowMs;
  }

  /** Whole seconds until the address may try again; 0 if it may now. */
  synchronized long waitSeconds(String client) {
    Failures failures = clients.get(client);
    long left = failures == null ? 0 : failures.refusedUntilMs() - nowMs.getAsLong();
    return left <= 0 ? 0 : (left + 999) / 1000;
  }

  /** Counts a failed attempt of the address. */
  synchronized void failed(String client) {
    long now = nowMs.getAsLong();
    Failures before = clients.get(client);
    int count = before == null || now - before.lastMs() >= FORGET_AFTER.toMillis()
        ? 1 : before.count() + 1;
    long waitMs = count < FREE_FAILURES ? 0
        : 1000L * Math.min(MAX_WAIT_SECONDS, 1L << Math.min(20, count - FREE_FAILURES));
    clients.put(client, new Failures(count, now, now + waitMs));
  }

  /** Forgets the address's failures after a successful login. */
  synchronized void succeeded(String client) {
    clients.remove(client);
  }

  /** How many addresses are remembered. */
  synchronized int size() {
    return clients.size();
  }

  private record Failures(int count, long lastMs, long refusedUntilMs) {}
}
