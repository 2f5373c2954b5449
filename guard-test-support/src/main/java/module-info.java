import org.jspecify.annotations.NullMarked;

/**
 * What guard's own tests share: real servers they start on loopback and bounded waits. A test
 * dependency of guard's modules only; never published.
 */
@NullMarked
module dev.guard.testing {
  requires static org.jspecify;

  exports dev.guard.testing;
}
