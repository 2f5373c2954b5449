import org.jspecify.annotations.NullMarked;

/**
 * A live dashboard for a guard engine: its resources, refusals, breakers and rules in a browser,
 * rule edits through a writable rule source, and the JSON API behind the pages. Served by the
 * JDK's built-in HTTP server or, where the application has a servlet container, by a servlet
 * (the Servlet API is optional: the container provides it).
 */
@NullMarked
module dev.guard.dashboard {
  requires transitive dev.guard.rules;
  requires transitive jdk.httpserver;
  requires static jakarta.servlet;
  requires static dev.guard.redis;
  requires tools.jackson.databind;

  exports dev.guard.dashboard;
}
