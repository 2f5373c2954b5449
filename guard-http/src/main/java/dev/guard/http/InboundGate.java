package dev.guard.http;

import dev.guard.api.Entry;
import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.api.internal.Checks;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Quota;
import dev.guard.engine.GuardedResource;
import dev.guard.http.internal.ResourceTable;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The one inbound admission every server adapter is built on (the servlet filter, the JDK server
 * filter and the Spring filters are), for adapters of servers and frameworks guard has no filter
 * for: {@link #admit} names a request's resource (bounded, as {@link HttpInbound} describes),
 * opens its context, computes its arguments and enters it, and answers with an {@link Admission}:
 * a refusal to write, or a call to run the handler in and finish once when the response is
 * complete. The adapter is left with its server's I/O.
 *
 * <pre>{@code
 * InboundGate gate = InboundGate.of(HttpInbound.of(engine).rateLimitHeaders(true));
 * Admission admission = gate.admit(view, "GET", rawPath);   // view: an HttpInbound.Request
 * }</pre>
 *
 * <p>Thread-safe; one instance serves one web application, whose resource bound it holds.
 */
public final class InboundGate {

  /** The name of the header field that states the policies of the rules that apply. */
  public static final String RATE_LIMIT_POLICY = "RateLimit-Policy";

  /** The name of the header field that states what is left of the limiting policy's budget. */
  public static final String RATE_LIMIT = "RateLimit";

  /**
   * The answer to a request whose path is ambiguous (see {@code docs/HTTP.md}, "Which path"):
   * 400, before the handler, the context or any statistics.
   */
  public static final HttpInbound.RefusalResponse AMBIGUOUS_PATH = new HttpInbound.RefusalResponse(
      400, "application/json",
      "{\"status\":400,\"error\":\"Bad Request\",\"reason\":\"ambiguous path\"}", null);

  private final HttpInbound settings;
  private final ResourceTable resources;

  private InboundGate(HttpInbound settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.resources = new ResourceTable(settings.engine(), EntryType.IN, settings.resourceBound(),
        HttpInbound.OVERFLOW_RESOURCE);
  }

  /**
   * Creates a gate with these settings.
   *
   * @param settings the inbound settings
   * @return the gate
   */
  public static InboundGate of(HttpInbound settings) {
    return new InboundGate(settings);
  }

  /**
   * Admits or refuses a request whose path is still percent-encoded, as a server that neither
   * decodes nor normalizes paths gives it (decoded strictly, {@code docs/HTTP.md}, "Which path"):
   * a path that is ambiguous is refused with {@link #AMBIGUOUS_PATH} before any function of the
   * settings runs; otherwise the request's resource ({@code METHOD + " " + path}, named as {@link
   * HttpInbound} says) is entered with its arguments inside its context (entrance and origin),
   * which stays open on this thread until {@link Admission#close}, so that the handler's own
   * guarded calls run in it. A refused request has its refusal response and rate-limit fields.
   *
   * @param request the request, for the origin, path template and arguments functions
   * @param method the request method as sent
   * @param rawPath the path as sent, without the query
   * @return the admission: a refusal to answer, or the admitted call to finish once
   */
  public Admission admit(HttpInbound.Request request, String method, String rawPath) {
    return admitRouted(request, method, RoutedPath.ofRaw(rawPath));
  }

  /**
   * Admits or refuses a request, as {@link #admit} does, by the path its server has already
   * decoded and normalized, as a servlet container routes by (context path, servlet path and path
   * info, {@code docs/HTTP.md}, "Which path"): a dot segment left is removed; a control
   * character, a backslash, the replacement character or a {@code ..} above the root makes the
   * path ambiguous, refused with {@link #AMBIGUOUS_PATH}. For adapters that run inside such a
   * server's dispatch, after the server parsed the request (guard's Spring MVC interceptor).
   *
   * @param request the request, for the origin, path template and arguments functions
   * @param method the request method as sent
   * @param decodedPath the decoded path the server routes the request by
   * @return the admission: a refusal to answer, or the admitted call to finish once
   */
  public Admission admitDecoded(HttpInbound.Request request, String method, String decodedPath) {
    return admitRouted(request, method, RoutedPath.ofDecoded(decodedPath));
  }

  /**
   * Admits or refuses a request by the path its server routes it by (null when that is
   * ambiguous), as {@link #admit} does.
   */
  Admission admitRouted(HttpInbound.Request request, String method, @Nullable String routedPath) {
    if (routedPath == null) {
      return Admission.refused(this, new Admission.Refusal(AMBIGUOUS_PATH, null));
    }
    return enter(request, handle(request, method, routedPath));
  }

  /**
   * Admits or refuses a request under a resource name the adapter chooses instead of its method
   * and path: a gateway's route id or API group, say. Everything else is as for {@link #admit}:
   * the name is bounded as {@link HttpInbound} describes (beyond {@link
   * HttpInbound#maxResources} new names map to {@value HttpInbound#OVERFLOW_RESOURCE}), the
   * resource is entered inside the request's context with the request's arguments, and a refused
   * request has its refusal response and rate-limit fields. An adapter may admit one request under
   * several names, each admission finished on its own.
   *
   * <pre>{@code
   * Admission route = gate.admitNamed(view, "orders-route");
   * }</pre>
   *
   * @param request the request, for the origin and arguments functions
   * @param resource the resource name; not blank
   * @return the admission: a refusal to answer, or the admitted call to finish once
   * @throws IllegalArgumentException if {@code resource} is blank
   */
  public Admission admitNamed(HttpInbound.Request request, String resource) {
    Checks.notBlank("resource", resource);
    String origin = Objects.requireNonNull(settings.originParser().apply(request), "origin");
    return enter(request,
        resources.handle(resource).context(settings.entranceName(), origin));
  }

  /** Enters a request's resource inside its context, for {@link #admit} and {@link #admitNamed}. */
  private Admission enter(HttpInbound.Request request, GuardedResource resource) {
    @Nullable Object[] args = arguments(request);
    GuardedResource.ContextScope scope = resource.openContext();
    boolean admitted = false;
    try {
      Entry entry;
      try {
        entry = resource.enterAsync(args);
      } catch (RefusedException refused) {
        return Admission.refused(this,
            new Admission.Refusal(refusal(refused), rateLimitFields(resource, args)));
      }
      Admission admission = Admission.admitted(this, resource, args, scope, entry,
          rateLimitFields(resource, args));
      admitted = true;
      return admission;
    } finally {
      if (!admitted) { // the handler will not run: the context ends here
        scope.close();
      }
    }
  }

  /**
   * The request's resource, {@code METHOD + " " + path}, the path being the template of the
   * settings' function if it gives one, else the cleaned routed path; with the request's context.
   *
   * @param method the request method as sent
   * @param routedPath the canonical path the server routes the request by (see {@link RoutedPath})
   */
  GuardedResource handle(HttpInbound.Request request, String method, String routedPath) {
    String origin = Objects.requireNonNull(settings.originParser().apply(request), "origin");
    String template = settings.templates().apply(request);
    String path = template != null ? template
        : Objects.requireNonNull(settings.cleaner().apply(routedPath), "cleaned path");
    return resources.handle(resourceMethod(method) + " " + path)
        .context(settings.entranceName(), origin);
  }

  /**
   * The method a resource is named by: upper case, and {@code HEAD} as {@code GET}, since servlets
   * answer a HEAD with their GET code ({@code HttpServlet.doHead}) and a JDK handler sees both.
   */
  static String resourceMethod(String method) {
    String upper = isUpperCase(method) ? method : method.toUpperCase(Locale.ROOT);
    return upper.equals("HEAD") ? "GET" : upper;
  }

  private static boolean isUpperCase(String method) {
    for (int i = 0; i < method.length(); i++) {
      char c = method.charAt(i);
      if (c >= 'a' && c <= 'z') {
        return false;
      }
    }
    return true;
  }

  /** The arguments a request enters its resource with ({@link HttpInbound#arguments}). */
  @Nullable Object[] arguments(HttpInbound.Request request) {
    return Objects.requireNonNull(settings.argumentsOf().apply(request), "arguments");
  }

  /** The response for a refused request, as the settings build it. */
  HttpInbound.RefusalResponse refusal(RefusedException refused) {
    return Objects.requireNonNull(settings.refusalHandler().apply(refused), "refusal response");
  }

  /**
   * The rate-limit header fields for a response of this resource, or null when the
   * settings do not send them ({@link HttpInbound#rateLimitHeaders}) or no rule has a budget for
   * the request (see {@link GuardedResource#budget}: flow rates per second, per-value rates for
   * the request's arguments, and the quotas of both); read after the request was admitted or
   * refused, so they count it. When they are off this reads nothing.
   */
  @Nullable RateLimitFields rateLimitFields(GuardedResource resource,
      @Nullable Object[] arguments) {
    if (!settings.sendsRateLimitHeaders()) {
      return null;
    }
    GuardedResource.Budget quota = resource.budget(arguments).orElse(null);
    return quota == null ? null : RateLimitFields.of(quota);
  }

  /**
   * Records the outcome of a finished request and exits its entry: {@code failure} if there was
   * one, else an error carrying the status when the settings count it as one (5xx by default);
   * negative status: no response was sent.
   */
  void finish(Entry entry, int status, @Nullable Throwable failure) {
    try {
      if (failure != null) {
        entry.recordError(failure);
      } else if (status > 0 && settings.errorStatus().test(status)) {
        entry.recordError(new HttpStatusException(entry.resource(), status));
      }
    } finally {
      entry.close();
    }
  }

  /**
   * Returns how many requests this gate mapped to {@link HttpInbound#OVERFLOW_RESOURCE} because
   * it had created its maximum number of resources.
   *
   * @return the count
   */
  public long overflows() {
    return resources.overflows();
  }

  /**
   * The values of the header fields {@value #RATE_LIMIT_POLICY} and {@value #RATE_LIMIT} for one
   * response (draft-ietf-httpapi-ratelimit-headers): the policy field lists every limit of the
   * budget, {@code "resource";q=100;w=1, "resource-60s";q=1000;w=60}, and the other states the
   * one closest to refusing, {@code "resource-60s";r=3;t=42}. A flow rule's rate per second is
   * named {@code "resource"} for a rule over all callers and {@code "origin"} for a rule for the
   * caller's origin, a per-value rule's rate {@code "value"}; quotas add their period, {@code
   * "resource-86400s"}, {@code "value-60s"} (whole seconds, else {@code "origin-500ms"}); a name
   * that would repeat gets {@code -2}, {@code -3}, ... appended.
   *
   * @param policy the value of {@value #RATE_LIMIT_POLICY}
   * @param rateLimit the value of {@value #RATE_LIMIT}
   */
  public record RateLimitFields(String policy, String rateLimit) {

    /**
     * Validates the values.
     *
     * @param policy the value of {@value #RATE_LIMIT_POLICY}
     * @param rateLimit the value of {@value #RATE_LIMIT}
     */
    public RateLimitFields {
      Objects.requireNonNull(policy, "policy");
      Objects.requireNonNull(rateLimit, "rateLimit");
    }

    /** Sets both fields through {@code header} (name, value). */
    void headers(BiConsumer<String, String> header) {
      header.accept(RATE_LIMIT_POLICY, policy);
      header.accept(RATE_LIMIT, rateLimit);
    }

    /**
     * Returns the fields that state a budget: for every policy {@code q} its limit and {@code w}
     * its window in seconds; for the limiting one {@code r} what is left and {@code t} the
     * seconds, rounded up, until its budget grows again.
     *
     * @param budget the budget
     * @return the fields
     */
    public static RateLimitFields of(GuardedResource.Budget budget) {
      List<GuardedResource.Budget.Policy> policies = budget.policies();
      GuardedResource.Budget.Policy limiting = budget.limiting();
      String[] names = new String[policies.size()];
      StringBuilder fields = new StringBuilder(24 * names.length);
      String rateLimit = "";
      for (int i = 0; i < names.length; i++) {
        GuardedResource.Budget.Policy p = policies.get(i);
        names[i] = uniqueName(names, i, name(p));
        if (i > 0) {
          fields.append(", ");
        }
        fields.append(names[i]).append(";q=").append(p.limit())
            .append(";w=").append(p.window().toSeconds());
        if (p == limiting) {
          rateLimit = names[i] + ";r=" + p.remaining() + ";t=" + secondsRoundedUp(p.reset());
        }
      }
      return new RateLimitFields(fields.toString(), rateLimit);
    }

    /** The policy's name without quotes: its scope, and a quota's period. */
    private static String name(GuardedResource.Budget.Policy p) {
      String scope = p.rule() instanceof PerValueRule ? "value"
          : p.rule() instanceof FlowRule flow && !flow.origin().equals(FlowRule.EVERY_ORIGIN)
              ? "origin" : "resource";
      Quota quota = p.quota();
      if (quota == null) {
        return scope;
      }
      long ms = quota.period().toMillis();
      return ms % 1000 == 0 ? scope + "-" + ms / 1000 + "s" : scope + "-" + ms + "ms";
    }

    /** The quoted name, with a number appended if an earlier policy has it. */
    private static String uniqueName(String[] earlier, int count, String name) {
      String quoted = "\"" + name + "\"";
      for (int n = 2; taken(earlier, count, quoted); n++) {
        quoted = "\"" + name + "-" + n + "\"";
      }
      return quoted;
    }

    private static boolean taken(String[] names, int count, String name) {
      for (int i = 0; i < count; i++) {
        if (names[i].equals(name)) {
          return true;
        }
      }
      return false;
    }

    private static long secondsRoundedUp(Duration wait) {
      return wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0);
    }
  }
}
