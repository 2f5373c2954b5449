import org.jspecify.annotations.NullMarked;

/** The guard engine: statistics, slot chain, controllers and rule registry. */
@NullMarked
module dev.guard.engine {
  requires transitive dev.guard.api;

  exports dev.guard.engine;
}
