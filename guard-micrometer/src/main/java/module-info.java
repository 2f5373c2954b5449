import org.jspecify.annotations.NullMarked;

/**
 * Micrometer metrics for a guard engine (call counts, response times, concurrency, events) and
 * its refusals and breaker transitions as events of Micrometer observations.
 */
@NullMarked
module dev.guard.micrometer {
  requires transitive dev.guard.engine;
  requires transitive micrometer.core;
  requires transitive micrometer.observation;
  requires micrometer.commons;

  exports dev.guard.micrometer;
}
