package dev.guard.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpPrincipal;
import com.sun.net.httpserver.HttpsExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import javax.net.ssl.SSLSession;
import org.jspecify.annotations.Nullable;

/**
 * {@link GuardedExchange} for an HTTPS exchange, so that handlers still see an {@link
 * HttpsExchange} with its TLS session; it forwards to a {@link GuardedExchange}.
 */
final class GuardedHttpsExchange extends HttpsExchange {

  private final HttpsExchange tls;
  private final GuardedExchange guarded;

  GuardedHttpsExchange(HttpsExchange delegate, ExchangeCompletion completion) {
    this.tls = delegate;
    this.guarded = new GuardedExchange(delegate, completion);
  }

  @Override
  public SSLSession getSSLSession() {
    return tls.getSSLSession();
  }

  @Override
  public Headers getRequestHeaders() {
    return guarded.getRequestHeaders();
  }

  @Override
  public Headers getResponseHeaders() {
    return guarded.getResponseHeaders();
  }

  @Override
  public URI getRequestURI() {
    return guarded.getRequestURI();
  }

  @Override
  public String getRequestMethod() {
    return guarded.getRequestMethod();
  }

  @Override
  public HttpContext getHttpContext() {
    return guarded.getHttpContext();
  }

  @Override
  public void close() {
    guarded.close();
  }

  @Override
  public InputStream getRequestBody() {
    return guarded.getRequestBody();
  }

  @Override
  public OutputStream getResponseBody() {
    return guarded.getResponseBody();
  }

  @Override
  public void sendResponseHeaders(int code, long length) throws IOException {
    guarded.sendResponseHeaders(code, length);
  }

  @Override
  public InetSocketAddress getRemoteAddress() {
    return guarded.getRemoteAddress();
  }

  @Override
  public int getResponseCode() {
    return guarded.getResponseCode();
  }

  @Override
  public InetSocketAddress getLocalAddress() {
    return guarded.getLocalAddress();
  }

  @Override
  public String getProtocol() {
    return guarded.getProtocol();
  }

  @Override
  public @Nullable Object getAttribute(String name) {
    return guarded.getAttribute(name);
  }

  @Override
  public void setAttribute(String name, @Nullable Object value) {
    guarded.setAttribute(name, value);
  }

  @Override
  public void setStreams(@Nullable InputStream in, @Nullable OutputStream out) {
    guarded.setStreams(in, out);
  }

  @Override
  public @Nullable HttpPrincipal getPrincipal() {
    return guarded.getPrincipal();
  }
}
