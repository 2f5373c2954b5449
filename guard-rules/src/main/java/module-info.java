import org.jspecify.annotations.NullMarked;

/**
 * Rules as data: the JSON rule format for every rule kind, and rule sources (a watched file, a
 * classpath resource, memory) that deliver whole rule sets to an engine.
 */
@NullMarked
module dev.guard.rules {
  requires transitive dev.guard.engine;
  requires tools.jackson.databind;

  exports dev.guard.rules;
}
