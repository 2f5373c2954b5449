package dev.guard.http;

import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.http.internal.ResourceTable;
import java.net.URI;
import java.util.Objects;

/**
 * The one outbound admission every HTTP client adapter is built on ({@link GuardedHttpClient} and
 * the Spring client interceptors are): {@link #enter} names a call's resource as {@link
 * HttpOutbound} says (its host, or its method, host and path template; bounded), enters it as an
 * {@link EntryType#OUT} call, and answers with an {@link OutboundCall} to finish exactly once when
 * the response arrives, the send fails or the caller gives up. A refusal is thrown before the
 * adapter sends anything. The adapter is left with its client's I/O.
 *
 * <pre>{@code
 * OutboundGate gate = OutboundGate.of(HttpOutbound.of(engine));
 * OutboundCall call = gate.enter("GET", uri);       // RefusedException: send nothing
 * try {
 *   Response response = client.send(...);
 *   call.finish(response.status());                  // a 5xx is counted as an error
 *   return response;
 * } catch (Throwable failure) {
 *   call.fail(failure);                              // an I/O error or timeout is counted
 *   throw failure;
 * }
 * // a cancelled asynchronous send: call.cancel(), exits without an error
 * }</pre>
 *
 * <p>Thread-safe; one instance holds one bounded table of resources, shared by the clients it
 * serves.
 */
public final class OutboundGate {

  private final HttpOutbound settings;
  private final ResourceTable resources;

  private OutboundGate(HttpOutbound settings) {
    this.settings = settings;
    this.resources = new ResourceTable(settings.engine(), EntryType.OUT, settings.resourceBound(),
        HttpOutbound.OVERFLOW_RESOURCE);
  }

  /**
   * Creates a gate with these settings and a table of resources of its own.
   *
   * @param settings the outbound settings
   * @return the gate
   */
  public static OutboundGate of(HttpOutbound settings) {
    return new OutboundGate(Objects.requireNonNull(settings, "settings"));
  }

  /**
   * Enters the resource of a call about to be sent, detached from this thread (the call may
   * finish on any thread); the call runs in the thread's current context, if any.
   *
   * @param method the request method, as it will be sent
   * @param uri the request URI, absolute
   * @return the admitted call, to finish once
   * @throws RefusedException if guard refused the call: send nothing
   */
  public OutboundCall enter(String method, URI uri) {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(uri, "uri");
    return new OutboundCall(resources.handle(settings.resourceName(method, uri)).enterAsync(),
        settings);
  }

  /**
   * Returns how many calls this gate mapped to {@link HttpOutbound#OVERFLOW_RESOURCE} because it
   * had created its maximum number of resources.
   *
   * @return the count
   */
  public long overflows() {
    return resources.overflows();
  }

  @Override
  public String toString() {
    return "OutboundGate[" + settings + "]";
  }
}
