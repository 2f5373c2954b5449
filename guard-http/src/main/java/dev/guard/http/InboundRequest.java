package dev.guard.http;

import java.util.Optional;

/**
 * What an inbound adapter tells about an arriving request, for functions that derive the caller's
 * origin from it (see {@link HttpInbound#origin}). The same view is given by the servlet filter
 * and the JDK HTTP server filter; it is valid only while the origin function runs.
 *
 * <pre>{@code
 * HttpInbound.on(engine).origin(request -> request.header("X-Api-Key").map(keys::owner).orElse(""));
 * }</pre>
 */
public interface InboundRequest {

  /**
   * Returns the request method.
   *
   * @return the method, such as {@code GET}
   */
  String method();

  /**
   * Returns the request path as sent, without the query, not decoded.
   *
   * @return the raw path
   */
  String path();

  /**
   * Returns the first value of a request header.
   *
   * @param name the header name, case-insensitive
   * @return its first value, if present
   */
  Optional<String> header(String name);

  /**
   * Returns the address of the client (or of the last proxy), as a literal IP address.
   *
   * @return the remote address
   */
  String remoteAddress();
}
