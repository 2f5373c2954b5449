import org.jspecify.annotations.NullMarked;

/**
 * HTTP adapters for guard: a Jakarta Servlet filter, a filter for the JDK's built-in HTTP server
 * and a decorator for {@link java.net.http.HttpClient} sends. The Servlet API is optional: only
 * the servlet filter needs it, and the servlet container provides it.
 */
@NullMarked
module dev.guard.http {
  requires transitive dev.guard.engine;
  requires transitive java.net.http;
  requires transitive jdk.httpserver;
  requires static jakarta.servlet;

  exports dev.guard.http;
}
