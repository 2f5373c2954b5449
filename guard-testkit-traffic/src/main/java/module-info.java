import org.jspecify.annotations.NullMarked;

/**
 * The guard test kit: deterministic time and helpers for testing code protected by guard, meant
 * for guard's own tests and for users' tests alike. This module adds the traffic simulator, jqwik
 * arbitraries and AssertJ assertions; the manual clock and the fakes come from {@code
 * dev.guard.testkit} (guard-testkit), which it requires transitively.
 */
@NullMarked
module dev.guard.testkit.traffic {
  requires transitive dev.guard.testkit;
  requires transitive dev.guard.dsl;
  requires transitive net.jqwik.api;
  requires transitive org.assertj.core;

  exports dev.guard.testkit.traffic;
}
