package dev.guard.redis;

import java.util.Objects;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;

/**
 * Says why a {@link Connector}'s attempts to connect fail, so that an operator can tell an outage
 * from a setting that can never work (a server certificate the client does not trust, a wrong
 * password, a Sentinel that does not know the master): a warning at the first failed attempt and
 * whenever the reason changes, and a note when an attempt succeeds after failures. Attempts repeat
 * every retry interval; an unchanged reason is not logged again. Logs go to the {@link
 * System.Logger} {@code dev.guard.redis}, from the connector's thread only; a reason names the
 * servers as {@link Servers#describe} does, never credentials.
 */
final class AttemptLog {

  private static final System.Logger LOG = System.getLogger("dev.guard.redis");

  private final String servers;
  private @Nullable String told; // the reason last logged; null while connected

  AttemptLog(String servers) {
    this.servers = servers;
  }

  /** Takes an attempt's outcome in: null for a connection, else why it failed. */
  synchronized void attempted(@Nullable Throwable failure) {
    if (failure == null) {
      if (told != null) {
        LOG.log(System.Logger.Level.INFO, "guard-redis " + servers + ": connected");
        told = null;
      }
      return;
    }
    String reason = reason(failure);
    if (!Objects.equals(reason, told)) {
      LOG.log(System.Logger.Level.WARNING, "guard-redis " + servers + ": cannot connect ("
          + reason + "); shared limits decide as their rules say for an outage, and guard tries "
          + "again every retry interval");
      told = reason;
    }
  }

  /** The failure and its causes, innermost last, each after an arrow. */
  static String reason(Throwable failure) {
    Throwable at = failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause() : failure;
    StringBuilder out = new StringBuilder();
    for (int depth = 0; at != null && depth < 5; depth++, at = at.getCause()) {
      out.append(depth == 0 ? "" : " <- ").append(at.getClass().getSimpleName());
      if (at.getMessage() != null) {
        out.append(": ").append(at.getMessage());
      }
      if (at.getCause() == at) {
        break;
      }
    }
    return out.toString();
  }
}
