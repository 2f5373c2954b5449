import org.jspecify.annotations.NullMarked;

/** The immutable Guard DSL: declare protections fluently and decorate functions with them. */
@NullMarked
module dev.guard.dsl {
  requires transitive dev.guard.engine;

  exports dev.guard;
  exports dev.guard.internal to dev.guard.reactor;
}
