import org.jspecify.annotations.NullMarked;

/**
 * A guard's calls as vavr values, for code written with vavr: a refusal becomes a failed {@code
 * Try} or a left {@code Either} instead of an exception. The DSL itself does not need vavr.
 */
@NullMarked
module dev.guard.vavr {
  requires transitive dev.guard.dsl;
  requires transitive io.vavr;

  exports dev.guard.vavr;
}
