package dev.guard.http;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardedResource;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * guard's answer to one arriving request, from {@link InboundGate#admit}: either a refusal to
 * write instead of running the handler ({@link #refusal()} is not null; nothing else to do), or an
 * admitted call whose handler may run now and which the adapter finishes exactly once when the
 * response is complete. Every inbound adapter (servlet, JDK server, WebFlux) is built on it, so
 * that an adapter is only its server's I/O: read the request, ask, write the answer.
 *
 * <pre>{@code
 * Admission admission = gate.admit(view, view.method(), view.path());
 * Admission.Refusal refused = admission.refusal();
 * if (refused != null) {
 *   write(refused);       // status, refused.headers(..), Content-Type, refused.body()
 *   return;
 * }
 * admission.headers(response::setHeader);    // the rate-limit fields, if any
 * try {
 *   handler.run();                           // its guarded calls run in the request's context
 * } catch (RefusedException nested) {        // the response has not started
 *   write(admission.refusedInside(nested));  // no error of the request
 * } catch (Throwable failure) {
 *   admission.failed(failure);
 *   throw failure;
 * } finally {
 *   admission.close();                       // the context, on this thread
 * }
 * // when the response is complete, on any thread: admission.finish(status), exits once
 * }</pre>
 *
 * <p>Thread-safe: the call may finish on another thread than the one it was admitted on.
 */
public final class Admission implements AutoCloseable {

  private final InboundGate gate;
  private final @Nullable GuardedResource resource;
  private final @Nullable Object[] arguments;
  private final GuardedResource.@Nullable ContextScope scope;
  private final @Nullable Entry entry;
  private final @Nullable Refusal refusal;
  private final InboundGate.@Nullable RateLimitFields fields;
  private final AtomicBoolean finished = new AtomicBoolean();
  private volatile @Nullable Throwable failure;
  private volatile boolean answeredRefusal;

  private Admission(InboundGate gate, @Nullable GuardedResource resource,
      @Nullable Object[] arguments, GuardedResource.@Nullable ContextScope scope,
      @Nullable Entry entry, @Nullable Refusal refusal,
      InboundGate.@Nullable RateLimitFields fields) {
    this.gate = gate;
    this.resource = resource;
    this.arguments = arguments;
    this.scope = scope;
    this.entry = entry;
    this.refusal = refusal;
    this.fields = fields;
  }

  static Admission refused(InboundGate gate, Refusal refusal) {
    return new Admission(gate, null, new Object[0], null, null, refusal, null);
  }

  static Admission admitted(InboundGate gate, GuardedResource resource,
      @Nullable Object[] arguments, GuardedResource.ContextScope scope, Entry entry,
      InboundGate.@Nullable RateLimitFields fields) {
    return new Admission(gate, resource, arguments, scope, entry, null, fields);
  }

  /**
   * Returns the refusal to answer the request with instead of running the handler, or null when
   * the request was admitted. A refused request has no call to finish.
   *
   * @return the refusal, or null
   */
  public @Nullable Refusal refusal() {
    return refusal;
  }

  /**
   * Gives the header fields an admitted request's response carries ({@value
   * InboundGate#RATE_LIMIT_POLICY} and {@value InboundGate#RATE_LIMIT} when the settings send them
   * and a rule has a budget for the request), to set before the handler runs; none for a refusal.
   *
   * @param header sets one header field (name, value) on the response
   */
  public void headers(BiConsumer<String, String> header) {
    InboundGate.RateLimitFields set = fields;
    if (set != null) {
      set.headers(header);
    }
  }

  /**
   * Marks the admitted call as answered with a refusal met inside the handler (a guarded call of
   * the handler was refused and the response has not started): the request then exits with no
   * error of its own unless a failure is also recorded ({@code docs/HTTP.md}, "Inbound:
   * refusals"). Call it only when the adapter will write the returned refusal.
   *
   * @param nested the refusal the handler met
   * @return what to answer, with the rate-limit fields as they stand now
   * @throws IllegalStateException if the request was not admitted
   */
  public Refusal refusedInside(RefusedException nested) {
    GuardedResource admitted = resource;
    if (admitted == null) {
      throw new IllegalStateException("refusedInside: the request was refused, not admitted");
    }
    answeredRefusal = true;
    return new Refusal(gate.refusal(nested), gate.rateLimitFields(admitted, arguments));
  }

  /**
   * Records what ended the request with an error (the handler's exception, an I/O error writing
   * the response, a server's error report), for {@link #finish}; a later failure replaces it.
   *
   * @param error the failure
   */
  public void failed(Throwable error) {
    failure = Objects.requireNonNull(error, "error");
  }

  /**
   * Exits the admitted call, once: the first call records the outcome (the recorded failure, else
   * an error for a status the settings count as one, 5xx by default; nothing for a refusal
   * answered inside the handler) and exits the entry; later calls, and calls on a refused request,
   * do nothing.
   *
   * @param status the response status; negative when no response was sent
   * @return whether this call exited the entry
   */
  public boolean finish(int status) {
    Entry admitted = entry;
    if (admitted == null || !finished.compareAndSet(false, true)) {
      return false;
    }
    Throwable error = failure;
    if (answeredRefusal && error == null) {
      admitted.close();
    } else {
      gate.finish(admitted, status, error);
    }
    return true;
  }

  /**
   * Closes the request's context on this thread (opened by {@link InboundGate#admit} so that the
   * handler's own guarded calls run in the request's entrance and origin); it does not finish the
   * call. Idempotent; nothing to do for a refused request.
   */
  @Override
  public void close() {
    GuardedResource.ContextScope open = scope;
    if (open != null) {
      open.close();
    }
  }

  /**
   * What an adapter writes instead of the handler's response: the refusal response as the
   * settings build it, with the rate-limit fields read when the request was refused.
   *
   * @param response the status, content type, body and {@code Retry-After} wait
   * @param rateLimitFields the rate-limit header fields, or null for none
   */
  public record Refusal(HttpInbound.RefusalResponse response,
      InboundGate.@Nullable RateLimitFields rateLimitFields) {

    /**
     * Validates the refusal.
     *
     * @param response the status, content type, body and {@code Retry-After} wait
     * @param rateLimitFields the rate-limit header fields, or null for none
     */
    public Refusal {
      Objects.requireNonNull(response, "response");
    }

    /**
     * Gives the header fields of the answer other than {@code Content-Type} and {@code
     * Content-Length}: the rate-limit fields, and {@code Retry-After} when a wait is announced.
     *
     * @param header sets one header field (name, value) on the response
     */
    public void headers(BiConsumer<String, String> header) {
      InboundGate.RateLimitFields set = rateLimitFields;
      if (set != null) {
        set.headers(header);
      }
      String retryAfter = response.retryAfterHeader();
      if (retryAfter != null) {
        header.accept("Retry-After", retryAfter);
      }
    }

    /**
     * Returns the status code to answer with.
     *
     * @return the status
     */
    public int status() {
      return response.status();
    }

    /**
     * Returns the body to answer with, UTF-8 encoded (its {@code Content-Type} is {@link
     * HttpInbound.RefusalResponse#contentType()}).
     *
     * @return the body bytes; empty for none
     */
    public byte[] body() {
      return response.body().getBytes(StandardCharsets.UTF_8);
    }
  }
}
