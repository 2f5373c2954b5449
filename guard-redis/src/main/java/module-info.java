import org.jspecify.annotations.NullMarked;

/**
 * Redis for applications on several instances: a token service that shares cluster flow rules'
 * windows, a rule source that pushes one rule set to every instance, and the fleet: every
 * instance's heartbeat and figures.
 */
@NullMarked
module dev.guard.redis {
  requires transitive dev.guard.engine;
  requires dev.guard.rules;
  requires lettuce.core;

  exports dev.guard.redis;
}
