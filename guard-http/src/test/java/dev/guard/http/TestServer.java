package dev.guard.http;

import java.net.URI;

/** A real HTTP server on a free loopback port, started by a test and closed by it. */
interface TestServer extends AutoCloseable {

  /** The server's base URI, {@code http://127.0.0.1:port}. */
  URI base();

  /** The guard filter's overflow count. */
  long overflows();

  @Override
  void close() throws Exception;
}
