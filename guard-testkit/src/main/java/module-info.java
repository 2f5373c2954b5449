import org.jspecify.annotations.NullMarked;

/**
 * The base of the guard test kit: deterministic time, a fake system status, an in-memory token
 * service and the token-service contract, on guard-api alone, so that guard's engine is tested
 * with it as well as users' code. The test kit's traffic simulator, arbitraries and assertions
 * ({@code dev.guard.testkit.traffic}) build on it.
 */
@NullMarked
module dev.guard.testkit {
  requires transitive dev.guard.api;
  requires transitive org.junit.jupiter.api; // TokenServiceContract is a JUnit 5 suite
  requires org.assertj.core;

  exports dev.guard.testkit;
  exports dev.guard.testkit.internal to dev.guard.testkit.traffic;
}
