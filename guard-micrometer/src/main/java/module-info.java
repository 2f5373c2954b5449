import org.jspecify.annotations.NullMarked;

/** Micrometer metrics for a guard engine: call counts, response times, concurrency, events. */
@NullMarked
module dev.guard.micrometer {
  requires transitive dev.guard.engine;
  requires transitive micrometer.core;

  exports dev.guard.micrometer;
}
