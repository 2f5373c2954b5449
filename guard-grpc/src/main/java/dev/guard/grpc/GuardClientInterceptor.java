package dev.guard.grpc;

import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Guards every call a gRPC channel makes: each call enters the resource named by its full method
 * name as one {@link EntryType#OUT} call, from {@code start} until its close or the caller's
 * cancel, once. A refused call fails before anything is sent: its listener is closed with the
 * refusal's status ({@link GrpcStatuses#refusalStatus}), so a stub throws (or passes to {@code
 * onError}) a {@code StatusRuntimeException} whose cause is the {@link RefusedException}. A
 * finished call whose status code is one of the {@linkplain Builder#errorCodes error codes}
 * counts as failed for statistics and circuit breakers.
 *
 * <pre>{@code
 * Channel channel = ClientInterceptors.intercept(managedChannel,
 *     GuardClientInterceptor.of(engine));
 * engine.apply(engine.ruleSet().withRulesOf("pricing.Prices/Quote",
 *     List.of(CircuitBreakerRule.errorRatio("pricing.Prices/Quote", 0.5))));
 * try {
 *   PricesGrpc.newBlockingStub(channel).quote(request);
 * } catch (StatusRuntimeException e) {
 *   if (e.getCause() instanceof RefusedException refused) { ... }   // refused by guard
 * }
 * }</pre>
 *
 * <p>Calls run in the context of the thread that starts them, as any guarded call. Thread-safe;
 * the exact behaviour is in the project's {@code docs/GRPC.md}.
 */
public final class GuardClientInterceptor implements ClientInterceptor {

  /**
   * The one catch-all resource of outbound calls, for methods beyond {@link
   * Builder#maxResources} that the engine has no rules for.
   */
  public static final String OVERFLOW_RESOURCE = "{grpc outbound overflow}";

  private final Function<Metadata, @Nullable Object[]> arguments;
  private final Function<? super RefusedException, Status> refusalStatus;
  private final Set<Status.Code> errorCodes;
  private final ResourceTable resources;

  private GuardClientInterceptor(Builder builder) {
    this.arguments = builder.arguments;
    this.refusalStatus = builder.refusalStatus;
    this.errorCodes = builder.errorCodes;
    this.resources = new ResourceTable(builder.engine, EntryType.OUT, builder.maxResources,
        OVERFLOW_RESOURCE);
  }

  /**
   * Returns an interceptor with the default settings ({@link Builder}).
   *
   * @param engine the engine that decides the calls
   * @return the interceptor
   */
  public static GuardClientInterceptor of(GuardEngine engine) {
    return builder(engine).build();
  }

  /**
   * Returns a builder with the default settings: no arguments, at most 500 resources, {@link
   * GrpcStatuses#refusalStatus} and {@link GrpcStatuses#DEFAULT_ERROR_CODES}.
   *
   * @param engine the engine that decides the calls
   * @return the builder
   */
  public static Builder builder(GuardEngine engine) {
    return new Builder(Objects.requireNonNull(engine, "engine"));
  }

  /**
   * Returns how many calls this interceptor mapped to {@link #OVERFLOW_RESOURCE}.
   *
   * @return the count
   */
  public long overflows() {
    return resources.overflows();
  }

  /**
   * Wraps the call so that it is entered when it starts and exited once when it ends.
   *
   * @param method the method called
   * @param options the call's options
   * @param next the channel (and the interceptors after this one)
   * @param <Q> the request type
   * @param <R> the response type
   * @return the guarded call
   */
  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method,
      CallOptions options, Channel next) {
    return new GuardedClientCall<>(next.newCall(method, options),
        resources.handle(method.getFullMethodName()), arguments, refusalStatus, errorCodes);
  }

  @Override
  public String toString() {
    return "GuardClientInterceptor";
  }

  /**
   * The settings of a {@link GuardClientInterceptor}; each method replaces its setting. Not
   * thread-safe.
   */
  public static final class Builder {

    private final GuardEngine engine;
    private Function<Metadata, @Nullable Object[]> arguments = MetadataArguments.NONE;
    private Function<? super RefusedException, Status> refusalStatus =
        GrpcStatuses::refusalStatus;
    private Set<Status.Code> errorCodes = Options.codes("errorCodes",
        GrpcStatuses.DEFAULT_ERROR_CODES);
    private int maxResources = 500;

    private Builder(GuardEngine engine) {
      this.engine = engine;
    }

    /**
     * Makes the values of these keys of the call's outgoing metadata, in this order, the
     * arguments of each call for per-value rules, read as {@link
     * GuardServerInterceptor.Builder#argumentKeys} reads them (first value, trimmed, absent as
     * the empty string, long values digested).
     *
     * @param names the keys, ASCII metadata keys, case-insensitive; at least one
     * @return this builder
     * @throws IllegalArgumentException if there is no key or one is not an ASCII metadata key
     */
    public Builder argumentKeys(String... names) {
      this.arguments = MetadataArguments.of("argumentKeys", names);
      return this;
    }

    /**
     * Bounds the resources the interceptor creates (default 500): further method names map to
     * {@value GuardClientInterceptor#OVERFLOW_RESOURCE}, unless the engine has rules for them.
     *
     * @param max the bound; {@code > 0}
     * @return this builder
     * @throws IllegalArgumentException if {@code max} is not positive
     */
    public Builder maxResources(int max) {
      this.maxResources = Options.positive("maxResources", max);
      return this;
    }

    /**
     * Sets the status codes that count a finished call as failed, for statistics and circuit
     * breakers (default {@link GrpcStatuses#DEFAULT_ERROR_CODES}).
     *
     * @param codes the codes; may be empty
     * @return this builder
     */
    public Builder errorCodes(Set<Status.Code> codes) {
      this.errorCodes = Options.codes("errorCodes", codes);
      return this;
    }

    /**
     * Sets the status a refused call is closed with (default {@link
     * GrpcStatuses#refusalStatus}); the retry pushback trailer is added whatever the status.
     *
     * @param status computes the status of a refusal; must not return null
     * @return this builder
     */
    public Builder refusalStatus(Function<? super RefusedException, Status> status) {
      this.refusalStatus = Objects.requireNonNull(status, "refusalStatus");
      return this;
    }

    /**
     * Builds the interceptor.
     *
     * @return the interceptor
     */
    public GuardClientInterceptor build() {
      return new GuardClientInterceptor(this);
    }
  }
}
