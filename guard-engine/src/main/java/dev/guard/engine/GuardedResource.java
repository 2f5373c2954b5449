package dev.guard.engine;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Quota;
import dev.guard.api.rule.Rule;
import dev.guard.engine.internal.quota.LimitBudget;
import java.time.Duration;
import java.util.Optional;
import dev.guard.engine.internal.call.CallEntry;
import dev.guard.api.internal.Checks;
import dev.guard.engine.internal.call.CallSite;
import dev.guard.engine.internal.EngineCore;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A resource of one engine, resolved once, with the settings of the calls made through this
 * handle: the way adapters and frameworks enter a resource when a decorator does not fit.
 *
 * <pre>{@code
 * GuardedResource orders = engine.resource("createOrder").entryType(EntryType.IN);
 *
 * Order order = orders.call(request, orderService::create);    // throws RefusedException
 *
 * try (Entry entry = orders.enter()) {                          // when the call is not one body
 *   ...
 * }
 * }</pre>
 *
 * <p>Handles are immutable and thread-safe: the setting methods return a new handle for the same
 * resource. Keep a handle per call site; resolving it again costs a name lookup. Calls through
 * {@link #call}, {@link #callWithArguments}, {@link #callOrElse} and {@link #callChecked} reuse a
 * per-thread entry object and allocate nothing; {@link #enter} and {@link #enterAsync} create an
 * entry the caller holds.
 *
 * <p>The handle is the engine's only way in: the engine has no call methods, and applications
 * use the {@code Guard} DSL, which is built on handles. A handle's {@link #context} replaces a
 * scope opened by hand: the implicit context lasts while the handle's entry is open, so calls
 * nested in its body run under the same entrance and origin.
 */
public final class GuardedResource {

  /**
   * Code run under a resource that may throw checked exceptions, for {@link #callChecked}.
   *
   * @param <I> the input type
   * @param <T> the result type
   */
  @FunctionalInterface
  public interface CheckedFunction<I extends @Nullable Object, T extends @Nullable Object> {

    /**
     * Runs the protected code.
     *
     * @param input the caller's input
     * @return the result
     * @throws Exception what the code throws
     */
    T apply(I input) throws Exception;
  }

  /**
   * The scope of this handle's context on the current thread, from {@link #openContext()} until
   * it is closed (with try-with-resources). If the thread already had a context when the scope
   * was opened, that context stays in force (its entrance and origin win) and closing this scope
   * does nothing. Closing a scope while entries made in it are still open is ignored: the context
   * ends when they do.
   */
  public interface ContextScope extends AutoCloseable {

    /**
     * Tells whether this scope opened a new context (false when an outer context stayed in force).
     *
     * @return whether a context was opened
     */
    boolean opened();

    /** Ends the context if this scope opened it and it has no open entry. */
    @Override
    void close();
  }

  /**
   * What the QPS and per-value rules of a handle's calls leave them right now, as {@link #budget}
   * reports it: one {@link Policy} per limit (each flow rule's rate per second, each per-value
   * rule's rate for the call's value, each quota of either), and the one {@linkplain #limiting()
   * closest to refusing}; what a client may be told in rate-limit headers.
   *
   * <pre>{@code
   * orders.budget().ifPresent(budget -> {
   *   GuardedResource.Budget.Policy tightest = budget.limiting();
   *   response.setHeader("RateLimit", "\"orders\";r=" + tightest.remaining()
   *       + ";t=" + tightest.reset().toSeconds());
   * });
   * }</pre>
   *
   * @param policies every limit that applies: flow rules, then per-value rules, each in the
   *     rules' order and each rule's rate before its quotas; not empty
   */
  public record Budget(List<Policy> policies) {

    /**
     * One limit: a flow rule's rate per second, a per-value rule's rate for the call's value
     * ({@code quota} null for both), or one of either rule's quotas.
     *
     * @param rule the rule: a {@link FlowRule} or a {@link PerValueRule}
     * @param quota the rule's quota this limit is, or null for the rule's rate
     * @param limit the calls the limit admits per window: a quota's limit; for a flow rule's rate
     *     {@code ⌊count⌋} per second, or one call per {@code ⌈1 / count⌉} seconds for a count
     *     below one; for a per-value rule's rate the value's threshold per period
     * @param window the window of {@code limit}, in whole seconds: one second (or {@code ⌈1 /
     *     count⌉}) for a flow rule's rate; a per-value rule's or a quota's period, rounded up
     * @param remaining how many more calls the limit would admit if they arrived now, from 0 to
     *     {@code limit}
     * @param reset how long until the budget grows again: for a flow rule's rate until the
     *     oldest passes leave the sliding window, or a pacing queue is empty; for a per-value
     *     rule's rate until its value's next refill; for a quota until its window has ended and it
     *     is full again (0 when it is full)
     */
    public record Policy(Rule rule, @Nullable Quota quota, long limit, Duration window,
        long remaining, Duration reset) {

      /**
       * Validates the policy.
       *
       * @param rule the rule
       * @param quota the quota, or null for the rate
       * @param limit the calls per window; {@code >= 0}
       * @param window the window; positive
       * @param remaining the calls left; from 0 to {@code limit}
       * @param reset the time until the budget grows; not negative
       * @throws IllegalArgumentException if a value is out of range
       */
      public Policy {
        Objects.requireNonNull(rule, "rule");
        if (limit < 0) {
          throw Checks.invalid("limit", limit, "must be >= 0");
        }
        Checks.positive("window", window);
        if (remaining < 0 || remaining > limit) {
          throw Checks.invalid("remaining", remaining, "must be from 0 to limit " + limit);
        }
        Checks.notNegative("reset", reset);
      }
    }

    /**
     * Validates and copies the policies.
     *
     * @param policies the policies; not empty
     * @throws IllegalArgumentException if {@code policies} is empty
     */
    public Budget {
      policies = List.copyOf(policies);
      if (policies.isEmpty()) {
        throw Checks.invalid("policies", policies, "must not be empty");
      }
    }

    /**
     * Returns the policy closest to refusing: the fewest calls left; on a tie, the one whose
     * budget grows again last; then the smaller limit; then the first.
     *
     * @return the limiting policy
     */
    public Policy limiting() {
      Policy best = policies.get(0);
      for (int i = 1; i < policies.size(); i++) {
        Policy p = policies.get(i);
        int byReset = p.reset().compareTo(best.reset());
        if (p.remaining() < best.remaining() || p.remaining() == best.remaining()
            && (byReset > 0 || byReset == 0 && p.limit() < best.limit())) {
          best = p;
        }
      }
      return best;
    }
  }

  private final EngineCore core;
  private final CallSite site;
  private final @Nullable Predicate<? super Throwable> errorFilter;

  GuardedResource(EngineCore core, CallSite site, @Nullable Predicate<? super Throwable> errorFilter) {
    this.core = core;
    this.site = site;
    this.errorFilter = errorFilter;
  }

  /**
   * Returns the resource name.
   *
   * @return the name
   */
  public String name() {
    return site.resource().name();
  }

  /**
   * Returns a handle whose calls enter with this direction (default {@link EntryType#OUT});
   * {@link EntryType#IN} calls count in the engine's inbound statistics and system protection.
   *
   * @param type the entry type
   * @return the new handle
   */
  public GuardedResource entryType(EntryType type) {
    Objects.requireNonNull(type, "type");
    return with(new CallSite(site.resource(), type, site.permits(), site.prioritized(),
        site.entrance(), site.origin()));
  }

  /**
   * Returns a handle whose calls take {@code permits} permits each (default 1).
   *
   * @param permits the permits per call; {@code >= 0}
   * @return the new handle
   * @throws IllegalArgumentException if {@code permits} is negative
   */
  public GuardedResource permits(int permits) {
    return with(new CallSite(site.resource(), site.type(), permits, site.prioritized(),
        site.entrance(), site.origin()));
  }

  /**
   * Returns a handle whose calls may borrow a pass from the next window bucket when a QPS rule is
   * at its limit, and wait (through the time source) until that bucket starts, instead of being
   * refused. The borrowed pass is accounted on the node the rule measures (usually the
   * resource-wide node): in its minute totals at once, in its second window when the bucket
   * starts. The per-context, origin and inbound nodes count the call's concurrency but no pass.
   *
   * @return the new handle
   */
  public GuardedResource prioritized() {
    return with(new CallSite(site.resource(), site.type(), site.permits(), true,
        site.entrance(), site.origin()));
  }

  /**
   * Returns a handle whose calls, on a thread without a context, run in an implicit context of
   * this name (entrance) and origin, which lasts while the entry is open: calls nested in it run
   * in it too (an enclosing context wins). Rules with an origin or the ENTRANCE strategy match on
   * them.
   *
   * <pre>{@code
   * try (Entry call = engine.resource("checkoutApi").context("checkoutApi", "mobile-app").enter()) {
   *   guardedCall.get();   // measured under the entrance "checkoutApi", origin "mobile-app"
   * }
   * }</pre>
   *
   * @param entrance the context (entrance) name; not blank
   * @param origin the caller's identity; empty when unknown
   * @return the new handle
   * @throws IllegalArgumentException if {@code entrance} is blank
   */
  public GuardedResource context(String entrance, String origin) {
    Checks.notBlank("entrance", entrance);
    Objects.requireNonNull(origin, "origin");
    return with(new CallSite(site.resource(), site.type(), site.permits(), site.prioritized(),
        entrance, origin));
  }

  /**
   * Returns a handle whose calls, on a thread without a context, carry this caller origin in the
   * default context (an enclosing context wins).
   *
   * @param origin the caller's identity; empty when unknown
   * @return the new handle
   */
  public GuardedResource origin(String origin) {
    Objects.requireNonNull(origin, "origin");
    return with(new CallSite(site.resource(), site.type(), site.permits(), site.prioritized(),
        site.entrance(), origin));
  }

  /**
   * Returns a handle whose calls count an exception thrown by the body as a business error (in the
   * statistics and for circuit breakers) only when {@code isError} returns true. Other exceptions
   * still pass through unchanged, and the call counts as a success. By default every exception
   * counts; a {@link RefusedException} never does, and an error recorded by hand with {@link
   * Entry#recordError} always does. A predicate that throws counts the exception.
   *
   * <pre>{@code
   * GuardedResource payments = engine.resource("payments")
   *     .recordExceptionsIf(e -> !(e instanceof IllegalArgumentException));
   * }</pre>
   *
   * @param isError tells which exceptions are business errors; fast and side-effect free
   * @return the new handle
   */
  public GuardedResource recordExceptionsIf(Predicate<? super Throwable> isError) {
    return new GuardedResource(core, site, Objects.requireNonNull(isError, "isError"));
  }

  /**
   * Opens this handle's {@linkplain #context context} on the current thread until the scope is
   * closed, for adapters whose request outlives one entry: every call on the thread inside the
   * scope, of any resource, runs under the entrance and origin, even after this resource was
   * entered with {@link #enterAsync} (which detaches its entry from the thread).
   *
   * <pre>{@code
   * GuardedResource request = engine.resource("GET /orders").context("http", origin);
   * try (GuardedResource.ContextScope scope = request.openContext()) {
   *   Entry entry = request.enterAsync();   // exits when the response completes
   *   chain.doFilter(req, res);             // nested guards see entrance "http" and the origin
   * }
   * }</pre>
   *
   * @return the scope to close
   * @throws IllegalStateException if the handle has no {@link #context} set
   */
  public ContextScope openContext() {
    String entrance = site.entrance();
    if (entrance == null) {
      throw new IllegalStateException(
          "openContext() needs the handle's context(entrance, origin), was unset");
    }
    Object handle = core.openContext(entrance, site.origin());
    return new ContextScope() {
      private boolean closed;

      @Override
      public boolean opened() {
        return handle != null;
      }

      @Override
      public void close() {
        if (handle != null && !closed) {
          closed = true;
          EngineCore.closeContext(handle);
        }
      }
    };
  }

  private GuardedResource with(CallSite changed) {
    return new GuardedResource(core, changed, errorFilter);
  }

  /**
   * Declares a guard's rules on its resource: they replace the resource's rules of the kinds they
   * belong to (all its flow rules, say) and leave the other kinds as they are. Rules in the part
   * of an attached rule source are left out: the source owns them (docs/BEHAVIOUR.md, "Installing
   * rules"). Declaring rules equal to those in force is a no-op; otherwise the engine's listeners
   * hear of the change. State of unchanged rules carries over. The {@code Guard} DSL declares
   * through this when a guard is bound to an engine; applying a rule set replaces declarations.
   *
   * @param rules the rules, all for this resource
   * @throws IllegalArgumentException if a rule is for another resource, of an unknown kind or a
   *     system rule, or if the rules hold two different origin rules (a resource has at most
   *     one)
   * @throws IllegalStateException if the resource cap was reached before this resource was known
   */
  public void declare(List<? extends Rule> rules) {
    core.declare(name(), List.copyOf(rules));
  }

  /**
   * Returns what the rules of this handle leave a call with these arguments right now: every
   * limit (each QPS flow rule's rate per second, each per-value rule's rate for the argument it
   * reads, each quota of either, with its window, remaining calls and reset) and the one closest
   * to refusing, read from the rules, statistics and quotas in force; see docs/BEHAVIOUR.md,
   * "Budget". Flow rules are matched with the handle's origin and entrance ({@link #context});
   * rules for other origins or entrances, concurrency limits and paced per-value rates have no
   * budget here, a per-value rule none for a collection or array argument, a cluster flow rule
   * only its quotas, as this instance counted the token service's grants (an approximation of
   * the fleet's budget: no round trip is made), and a cluster per-value rule none. A warm-up rule
   * reports its count as the limit and what its current rate leaves as remaining. The read takes
   * no lock and allocates only its result; calls never pay for it.
   *
   * <pre>{@code
   * Entry entry = orders.enterAsync(apiKey);
   * orders.budget(apiKey).map(GuardedResource.Budget::limiting)
   *     .ifPresent(p -> log.debug("{} calls left of {}", p.remaining(), p.limit()));
   * }</pre>
   *
   * @param args the call's arguments, as {@link #enter} is given them, for per-value rules; none
   *     (or null) for the flow rules' budget alone
   * @return the budget, or empty when no rule has one for these calls
   */
  public Optional<Budget> budget(@Nullable Object @Nullable ... args) {
    List<LimitBudget> read = core.budget(site, args);
    if (read.isEmpty()) {
      return Optional.empty();
    }
    Budget.Policy[] policies = new Budget.Policy[read.size()];
    for (int i = 0; i < policies.length; i++) {
      LimitBudget b = read.get(i);
      policies[i] = new Budget.Policy(b.rule(), b.quota(), b.limit(),
          Duration.ofSeconds(b.windowSeconds()), b.remaining(), Duration.ofNanos(b.resetNanos()));
    }
    return Optional.of(new Budget(List.of(policies)));
  }

  /**
   * Enters the resource; close the entry when the call ends.
   *
   * @param args the call's arguments, for per-value rules
   * @return the admitted entry
   * @throws RefusedException if a rule refused the call
   */
  public Entry enter(@Nullable Object... args) {
    CallEntry entry = core.enter(site, false, args);
    RefusedException refused = entry.refusal();
    if (refused != null) {
      throw refused;
    }
    return entry;
  }

  /**
   * Enters the resource for an asynchronous call: the entry is detached from this thread at once
   * (the thread may go on entering and exiting other resources), and may be closed on any thread
   * when the call completes.
   *
   * @param args the call's arguments, for per-value rules
   * @return the admitted entry
   * @throws RefusedException if a rule refused the call
   */
  public Entry enterAsync(@Nullable Object... args) {
    CallEntry entry = core.enter(site, false, args);
    RefusedException refused = entry.refusal();
    if (refused != null) {
      throw refused;
    }
    EngineCore.detach(entry);
    return entry;
  }

  /**
   * Runs {@code body} on {@code input} under the resource, so the caller needs no capturing
   * lambda: {@code orders.call(request, orderService::create)}. Exceptions of the body pass
   * through as the same instance and count as business errors.
   *
   * @param input the body's input
   * @param body the protected code
   * @param <I> the input type
   * @param <T> the result type
   * @return the body's result
   * @throws RefusedException if a rule refused the call (the body did not run)
   */
  public <I extends @Nullable Object, T extends @Nullable Object> T call(
      I input, Function<? super I, ? extends T> body) {
    CallEntry entry = core.enter(site, true, null);
    throwIfRefused(entry);
    return runAdmitted(entry, input, body);
  }

  /**
   * Runs {@code body} on two inputs under the resource; the inputs are the call's arguments 0 and
   * 1 for per-value rules (passing them allocates nothing). Exceptions of the body pass
   * through as the same instance and count as business errors.
   *
   * <pre>{@code
   * Page page = search.callWithArguments(query, tenant, index::search);
   * }</pre>
   *
   * @param first the first input, argument 0
   * @param second the second input, argument 1
   * @param body the protected code
   * @param <A> the first input's type
   * @param <B> the second input's type
   * @param <T> the result type
   * @return the body's result
   * @throws RefusedException if a rule refused the call (the body did not run)
   */
  public <A extends @Nullable Object, B extends @Nullable Object, T extends @Nullable Object>
      T callWithArguments(A first, B second, BiFunction<? super A, ? super B, ? extends T> body) {
    CallEntry entry = core.enterWithArguments(site, first, second);
    throwIfRefused(entry);
    long use = entry.generation();
    Throwable failure = null;
    try {
      return body.apply(first, second);
    } catch (Throwable thrown) {
      failure = thrown;
      throw thrown;
    } finally {
      entry.close(use, failure, errorFilter);
    }
  }

  /**
   * Like {@link #call}, with {@code argument} as the call's one argument for per-value rules
   * (passing it allocates nothing), and a refusal returns {@code onRefused}'s result instead of
   * throwing (a fallback that throws the refusal makes it a throwing call).
   *
   * @param argument the argument per-value rules read (index 0); null for none
   * @param input the body's input
   * @param body the protected code
   * @param onRefused computes the result of a refused call
   * @param <I> the input type
   * @param <T> the result type
   * @return the body's or the fallback's result
   */
  public <I extends @Nullable Object, T extends @Nullable Object> T callOrElse(
      @Nullable Object argument,
      I input,
      Function<? super I, ? extends T> body,
      Function<? super RefusedException, ? extends T> onRefused) {
    CallEntry entry = core.enterWithArgument(site, argument);
    RefusedException refused = entry.refusal();
    if (refused != null) {
      return onRefused.apply(refused);
    }
    return runAdmitted(entry, input, body);
  }

  /**
   * Like {@link #call}, for code that throws checked exceptions; they pass through unchanged.
   *
   * @param input the body's input
   * @param body the protected code
   * @param <I> the input type
   * @param <T> the result type
   * @return the body's result
   * @throws RefusedException if a rule refused the call (the body did not run)
   * @throws Exception what the body throws
   */
  public <I extends @Nullable Object, T extends @Nullable Object> T callChecked(
      I input, CheckedFunction<? super I, ? extends T> body) throws Exception {
    CallEntry entry = core.enter(site, true, null);
    throwIfRefused(entry);
    long use = entry.generation();
    Throwable failure = null;
    try {
      return body.apply(input);
    } catch (Throwable thrown) {
      failure = thrown;
      throw thrown;
    } finally {
      entry.close(use, failure, errorFilter);
    }
  }

  private static void throwIfRefused(CallEntry entry) {
    RefusedException refused = entry.refusal();
    if (refused != null) {
      throw refused;
    }
  }

  private <I extends @Nullable Object, T extends @Nullable Object> T runAdmitted(
      CallEntry entry, I input, Function<? super I, ? extends T> body) {
    long use = entry.generation();
    Throwable failure = null;
    try {
      return body.apply(input);
    } catch (Throwable thrown) {
      failure = thrown;
      throw thrown;
    } finally {
      entry.close(use, failure, errorFilter);
    }
  }

  @Override
  public String toString() {
    return "GuardedResource[" + name() + "]";
  }
}
