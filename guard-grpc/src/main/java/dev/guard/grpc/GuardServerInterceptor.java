package dev.guard.grpc;

import dev.guard.api.Entry;
import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Guards every call a gRPC server receives: each call, unary or streaming, enters the resource
 * named by its full method name ({@code shop.Orders/Create}) as one {@link EntryType#IN} call,
 * from the moment it starts until it is closed, cancelled or fails, whatever comes first, once.
 * A refused call is closed with a status ({@link GrpcStatuses#refusalStatus}) and the {@link
 * GrpcStatuses#RETRY_PUSHBACK_MS} trailer before the handler is started.
 *
 * <pre>{@code
 * GuardServerInterceptor guard = GuardServerInterceptor.builder(engine)
 *     .entrance("shop")               // the context every call runs in
 *     .originKey("x-caller")          // the caller's identity, for origin rules
 *     .argumentKeys("x-api-key")      // argument 0 of per-value rules
 *     .build();
 * Server server = ServerBuilder.forPort(8443).addService(orders).intercept(guard).build();
 * // rules, as for any resource:
 * engine.apply(engine.ruleSet().withRulesOf("shop.Orders/Create",
 *     List.of(FlowRule.qps("shop.Orders/Create", 100))));
 * }</pre>
 *
 * <p>The call's context (entrance and origin) is open while the interceptor starts the handler
 * and during each callback of the handler's listener, so that guarded calls the handler makes
 * run in it. The final status counts as a failed call for statistics and circuit breakers when
 * its code is one of the {@linkplain Builder#errorCodes error codes}. Thread-safe; one instance
 * serves one server, whose resource bound it holds. The exact behaviour is in the project's
 * {@code docs/GRPC.md}.
 */
public final class GuardServerInterceptor implements ServerInterceptor {

  /**
   * The one catch-all resource of inbound calls: a call maps to it when its method would be a new
   * resource beyond {@link Builder#maxResources} (and the engine has no rules for that name), or
   * when its name is longer than 1,024 characters.
   */
  public static final String OVERFLOW_RESOURCE = "{grpc inbound overflow}";

  /** The default entrance (context) name. */
  public static final String DEFAULT_ENTRANCE = "grpc";

  private static final BiFunction<ServerCall<?, ?>, Metadata, String> NO_ORIGIN =
      (call, headers) -> "";

  private final String entrance;
  private final BiFunction<? super ServerCall<?, ?>, ? super Metadata, String> origin;
  private final BiFunction<? super ServerCall<?, ?>, ? super Metadata, @Nullable Object[]> arguments;
  private final Function<? super RefusedException, Status> refusalStatus;
  private final Set<Status.Code> errorCodes;
  private final ResourceTable resources;

  private GuardServerInterceptor(Builder builder) {
    this.entrance = builder.entrance;
    this.origin = builder.origin;
    this.arguments = builder.arguments;
    this.refusalStatus = builder.refusalStatus;
    this.errorCodes = builder.errorCodes;
    this.resources = new ResourceTable(builder.engine, EntryType.IN, builder.maxResources,
        OVERFLOW_RESOURCE);
  }

  /**
   * Returns an interceptor with the default settings ({@link Builder}).
   *
   * @param engine the engine that decides the calls
   * @return the interceptor
   */
  public static GuardServerInterceptor of(GuardEngine engine) {
    return builder(engine).build();
  }

  /**
   * Returns a builder with the default settings: entrance {@value #DEFAULT_ENTRANCE}, no origin,
   * no arguments, at most 500 resources, {@link GrpcStatuses#refusalStatus} and {@link
   * GrpcStatuses#DEFAULT_ERROR_CODES}.
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
   * Enters the call's resource in its context; starts the handler with a call and listener that
   * end the entry once, or closes a refused call with its status and trailers and returns a
   * listener that ignores everything.
   *
   * @param call the call
   * @param headers the call's metadata
   * @param next the handler (and the interceptors after this one)
   * @param <Q> the request type
   * @param <R> the response type
   * @return the listener of the call
   */
  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    String caller = Objects.requireNonNull(origin.apply(call, headers), "origin");
    @Nullable Object[] args = Objects.requireNonNull(arguments.apply(call, headers), "arguments");
    GuardedResource resource = resources.handle(call.getMethodDescriptor().getFullMethodName())
        .context(entrance, caller);
    GuardedResource.ContextScope scope = resource.openContext();
    try {
      Entry entry;
      try {
        entry = resource.enterAsync(args);
      } catch (RefusedException refused) {
        Status status = Objects.requireNonNull(refusalStatus.apply(refused), "refusal status");
        call.close(status, GrpcStatuses.trailers(refused));
        return new ServerCall.Listener<Q>() {};
      }
      GuardedServerCall<Q, R> guarded = new GuardedServerCall<>(call,
          new CallEnd(entry, errorCodes), refusalStatus);
      ServerCall.Listener<Q> listener;
      try {
        listener = next.startCall(guarded, headers);
      } catch (RefusedException nested) {
        if (guarded.answerRefusal(nested)) {
          return new ServerCall.Listener<Q>() {};
        }
        guarded.end.failed(nested);
        throw nested;
      } catch (RuntimeException | Error thrown) {
        guarded.end.failed(thrown);
        throw thrown;
      }
      return new GuardedServerCall.Listener<>(listener, resource, guarded,
          Context.current().getDeadline());
    } finally {
      scope.close();
    }
  }

  @Override
  public String toString() {
    return "GuardServerInterceptor[entrance=" + entrance + "]";
  }

  /**
   * The settings of a {@link GuardServerInterceptor}; each method replaces its setting. Not
   * thread-safe; {@link #build()} may be called more than once (each interceptor has its own
   * resource bound).
   */
  public static final class Builder {

    private final GuardEngine engine;
    private String entrance = DEFAULT_ENTRANCE;
    private BiFunction<? super ServerCall<?, ?>, ? super Metadata, String> origin = NO_ORIGIN;
    private BiFunction<? super ServerCall<?, ?>, ? super Metadata, @Nullable Object[]> arguments =
        (call, headers) -> MetadataArguments.NONE.apply(headers);
    private Function<? super RefusedException, Status> refusalStatus =
        GrpcStatuses::refusalStatus;
    private Set<Status.Code> errorCodes = Options.codes("errorCodes",
        GrpcStatuses.DEFAULT_ERROR_CODES);
    private int maxResources = 500;

    private Builder(GuardEngine engine) {
      this.engine = engine;
    }

    /**
     * Sets the context (entrance) every call runs in: one name per server, so that ENTRANCE flow
     * rules and entrance statistics tell servers apart. The default is {@value
     * #DEFAULT_ENTRANCE}.
     *
     * @param name the entrance name; not blank
     * @return this builder
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public Builder entrance(String name) {
      this.entrance = Options.notBlank("entrance", name);
      return this;
    }

    /**
     * Takes the caller's origin from a metadata key: its first value, trimmed; the empty origin
     * (unknown caller) when the key is absent. Replaces {@link #origin}. The client chooses what
     * it sends: use a key your own proxy or authentication sets (see {@code docs/GRPC.md},
     * "Metadata and trust").
     *
     * @param name the key, an ASCII metadata key, case-insensitive
     * @return this builder
     * @throws IllegalArgumentException if {@code name} is blank, ends in {@code -bin} or holds a
     *     character a metadata key cannot have
     */
    public Builder originKey(String name) {
      Metadata.Key<String> key = Options.asciiKey("originKey", name);
      this.origin = (call, headers) -> MetadataArguments.firstValue(headers, key);
      return this;
    }

    /**
     * Derives the caller's origin from the call and its metadata with a function (the empty string
     * for an unknown caller): from an authenticated peer in {@code call.getAttributes()}, say.
     * Replaces {@link #originKey}. An exception it throws fails the call before guard decides it.
     *
     * <pre>{@code
     * builder.origin((call, headers) -> identities.of(call.getAttributes()));
     * }</pre>
     *
     * @param origin computes the origin of a call
     * @return this builder
     */
    public Builder origin(BiFunction<? super ServerCall<?, ?>, ? super Metadata, String> origin) {
      this.origin = Objects.requireNonNull(origin, "origin");
      return this;
    }

    /**
     * Makes the values of these metadata keys, in this order, the arguments of each call, so that
     * per-value rules limit calls by them (a rule's argument index counts in this list): each
     * key's first value, trimmed; the empty string when it is absent (all such calls share the
     * empty value's budget); {@code "sha256:"} and the value's SHA-256 digest in hex for a value
     * longer than 128 characters. Replaces {@link #arguments}.
     *
     * @param names the keys, ASCII metadata keys, case-insensitive; at least one
     * @return this builder
     * @throws IllegalArgumentException if there is no key or one is not an ASCII metadata key
     */
    public Builder argumentKeys(String... names) {
      MetadataArguments read = MetadataArguments.of("argumentKeys", names);
      this.arguments = (call, headers) -> read.apply(headers);
      return this;
    }

    /**
     * Computes each call's arguments for per-value rules with a function of the call and its
     * metadata. Replaces {@link #argumentKeys}. An exception it throws fails the call before
     * guard decides it; it must not return null.
     *
     * @param arguments computes a call's arguments
     * @return this builder
     */
    public Builder arguments(
        BiFunction<? super ServerCall<?, ?>, ? super Metadata, @Nullable Object[]> arguments) {
      this.arguments = Objects.requireNonNull(arguments, "arguments");
      return this;
    }

    /**
     * Bounds the resources the interceptor creates (default 500): further method names map to
     * {@value GuardServerInterceptor#OVERFLOW_RESOURCE} and are counted ({@link
     * GuardServerInterceptor#overflows()}); a name the engine has rules for keeps its own
     * resource.
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
    public GuardServerInterceptor build() {
      return new GuardServerInterceptor(this);
    }
  }
}
