package dev.guard.grpc;

import dev.guard.api.RefusedException;
import io.grpc.Metadata;
import io.grpc.Status;
import java.util.Set;

/**
 * What guard says in gRPC's terms, for both interceptors: the status a refused call is closed
 * with, the trailer that tells the caller when a retry could pass, and the status codes that count
 * as a failed call by default.
 *
 * <table>
 * <caption>Refusal statuses</caption>
 * <tr><th>refusal</th><th>status</th></tr>
 * <tr><td>{@link RefusedException.Flow}, {@link RefusedException.PerValue}, {@link
 *     RefusedException.AdaptiveConcurrency}</td><td>{@code RESOURCE_EXHAUSTED}</td></tr>
 * <tr><td>{@link RefusedException.Breaker}, {@link RefusedException.SystemProtection}</td>
 *     <td>{@code UNAVAILABLE}</td></tr>
 * <tr><td>{@link RefusedException.Origin}</td><td>{@code PERMISSION_DENIED}</td></tr>
 * </table>
 *
 * <pre>{@code
 * GuardServerInterceptor.builder(engine)
 *     .refusalStatus(refused -> refused instanceof RefusedException.SystemProtection
 *         ? Status.RESOURCE_EXHAUSTED.withCause(refused) : GrpcStatuses.refusalStatus(refused))
 *     .build();
 * }</pre>
 */
public final class GrpcStatuses {

  /**
   * The trailer a refused call carries when the refusal knows how long until a retry could pass
   * ({@link RefusedException#retryAfter()}): the wait in whole milliseconds, rounded up. gRPC
   * clients whose retry policy lists the status honour it; it is absent when the wait is unknown.
   */
  public static final Metadata.Key<String> RETRY_PUSHBACK_MS =
      Metadata.Key.of("grpc-retry-pushback-ms", Metadata.ASCII_STRING_MARSHALLER);

  /**
   * The status codes that count as a failed call when no other set is configured, on the server
   * and on the client: {@code UNKNOWN} (also a handler's uncaught exception), {@code
   * DEADLINE_EXCEEDED}, {@code UNAVAILABLE}, {@code INTERNAL} and {@code DATA_LOSS}. Not {@code
   * RESOURCE_EXHAUSTED}: it is how limiters (guard's own included) refuse, and a limit somewhere
   * else must not open this resource's breaker.
   */
  public static final Set<Status.Code> DEFAULT_ERROR_CODES = Set.of(Status.Code.UNKNOWN,
      Status.Code.DEADLINE_EXCEEDED, Status.Code.UNAVAILABLE, Status.Code.INTERNAL,
      Status.Code.DATA_LOSS);

  private GrpcStatuses() {}

  /**
   * Returns the default status of a refused call (see the table above), with a description naming
   * the protection and the resource, and the refusal as its cause, so that a client's {@code
   * StatusRuntimeException.getCause()} is the {@link RefusedException} on the calling side (the
   * cause is not sent over the wire).
   *
   * @param refused the refusal
   * @return the status
   */
  public static Status refusalStatus(RefusedException refused) {
    Status status;
    if (refused instanceof RefusedException.Breaker
        || refused instanceof RefusedException.SystemProtection) {
      status = Status.UNAVAILABLE;
    } else if (refused instanceof RefusedException.Origin) {
      status = Status.PERMISSION_DENIED;
    } else {
      status = Status.RESOURCE_EXHAUSTED;
    }
    return status.withDescription("refused by guard (" + RefusedException.Kind.of(refused).tag()
        + "): " + refused.resource()).withCause(refused);
  }

  /** The trailers of a refused call: the retry pushback when the wait is known, else none. */
  static Metadata trailers(RefusedException refused) {
    Metadata trailers = new Metadata();
    long millis = refused.retryAfterMillis();
    if (millis >= 0) {
      trailers.put(RETRY_PUSHBACK_MS, Long.toString(millis));
    }
    return trailers;
  }
}
