package dev.guard.examples;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The simulated service: six endpoints of a pretend shop, each protected in a different way.
 * The first five are offered more traffic than their guards admit; the sixth has a dependency
 * that goes down for a while.
 *
 * <ul>
 *   <li>{@code search}: a plain QPS limit under steady overload — passes stay at the limit.
 *   <li>{@code checkout}: a QPS limit with warm-up, hit at full load from a cold start — passes
 *       start near a third of the limit and climb to it.
 *   <li>{@code payments}: pacing — bursts are spread out into calls 50 ms apart; a call that
 *       would queue longer than 500 ms is refused.
 *   <li>{@code reports}: a concurrency limit on slow calls — at most four run at once.
 *   <li>{@code profile}: a limit per user (per value) — one noisy user is held to five calls a
 *       second while the other users' calls all pass.
 *   <li>{@code inventory}: a circuit breaker on the error ratio, whose dependency fails from 4 s
 *       to 8 s into the run — the breaker opens, lets one probe through every 2 s, and closes at
 *       the first probe after the dependency is back.
 * </ul>
 */
final class Shop {

  /** Who calls {@code profile}, in turn: one noisy user sends six of every ten calls. */
  static final List<String> PROFILE_CALLERS = List.of(
      "noisy", "ann", "noisy", "bob", "noisy", "cyd", "noisy", "dee", "noisy", "noisy");

  private Shop() {}

  /**
   * Declares the endpoints on an engine.
   *
   * @param engine the engine every guard is bound to
   * @return the endpoints, in display order
   */
  static List<Endpoint> endpoints(GuardEngine engine) {
    return declared(engine);
  }

  /**
   * The same endpoints with guards that declare no rules: the engine's rules (from a rules file)
   * protect them.
   *
   * @param engine the engine every guard is bound to
   * @param rulesOf describes the rules of a resource, for the headings
   * @return the endpoints, in display order
   */
  static List<Endpoint> endpoints(GuardEngine engine, Function<String, String> rulesOf) {
    List<Endpoint> endpoints = new ArrayList<>();
    for (Endpoint declared : declared(GuardEngine.builder().build())) {
      String name = declared.name();
      endpoints.add(new Endpoint(name, rulesOf.apply(name), Guard.of(name).on(engine),
          declared.period(), declared.burst(), declared.work(), declared.watch()));
    }
    return List.copyOf(endpoints);
  }

  private static List<Endpoint> declared(GuardEngine engine) {
    return List.of(
        new Endpoint("search", "qps(50)",
            Guard.of("search").qps(50).on(engine),
            Duration.ofNanos(12_500_000), 1, Duration.ZERO,
            "50 pass every second, the other 30 are refused at once"),
        new Endpoint("checkout", "qps(40).warmUp(10 s)",
            Guard.of("checkout").qps(40).warmUp(Duration.ofSeconds(10)).on(engine),
            Duration.ofMillis(10), 1, Duration.ZERO,
            "starts cold at 40 / 3 ≈ 13 a second and climbs to 40 over about 10 s"),
        new Endpoint("payments", "qps(20).pacing(500 ms)",
            Guard.of("payments").qps(20).pacing(Duration.ofMillis(500)).on(engine),
            Duration.ofMillis(500), 12, Duration.ZERO,
            "spread 50 ms apart; a call that would queue over 500 ms is refused"),
        new Endpoint("reports", "concurrency(4)",
            Guard.of("reports").concurrency(4).on(engine),
            Duration.ofNanos(16_666_667), 1, Duration.ofMillis(100),
            "at most 4 at a time; slots idle until the next call, so < 40/s pass"),
        new Endpoint("profile", "perValue(0, 5)",
            Guard.of("profile").perValue(0, 5).on(engine),
            Duration.ofMillis(25), 1, Duration.ZERO,
            "per user: noisy (24/s) gets 5 a second, the other four (4/s each) all pass",
            PROFILE_CALLERS),
        new Endpoint("inventory", "errorRatio(0.5).openFor(2 s)",
            Guard.of("inventory").errorRatio(0.5).openFor(Duration.ofSeconds(2)).on(engine),
            Duration.ofMillis(25), 1, Duration.ZERO,
            "down from 4 s to 8 s: opens, one probe every 2 s, closes after 8 s",
            Duration.ofSeconds(4), Duration.ofSeconds(4)));
  }
}
