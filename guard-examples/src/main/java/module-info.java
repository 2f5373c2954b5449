import org.jspecify.annotations.NullMarked;

/**
 * The runnable guard demo: a small simulated service whose endpoints are protected by guard,
 * driven by generated load and reported per second in the terminal and on the live dashboard.
 * Nothing here is API.
 */
@NullMarked
module dev.guard.examples {
  requires dev.guard.dsl;
  requires dev.guard.http;
  requires dev.guard.redis;
  requires lettuce.core;
  requires java.logging;
  requires dev.guard.rules;
  requires dev.guard.dashboard;
}
