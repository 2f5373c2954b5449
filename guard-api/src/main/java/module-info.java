import org.jspecify.annotations.NullMarked;

/** Contracts and immutable values shared by every guard module. */
@NullMarked
module dev.guard.api {
  requires transitive org.jspecify;

  exports dev.guard.api;
  exports dev.guard.api.rule;
  exports dev.guard.spi;
  exports dev.guard.api.internal to dev.guard.engine, dev.guard.dsl, dev.guard.http, dev.guard.rules,
      dev.guard.redis, dev.guard.dashboard;
}
