import org.jspecify.annotations.NullMarked;

/**
 * The guard test kit: deterministic time and helpers for testing code protected by guard, meant
 * for guard's own tests and for users' tests alike.
 */
@NullMarked
module dev.guard.testkit {
  requires transitive dev.guard.dsl;
  requires transitive net.jqwik.api;
  requires transitive org.assertj.core;
  requires transitive org.junit.jupiter.api;

  exports dev.guard.testkit;
}
