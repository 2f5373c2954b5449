package dev.guard.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import org.jspecify.annotations.Nullable;

/**
 * The exchange a guarded handler receives: it forwards everything to the server's exchange and
 * tells the {@link ExchangeCompletion} when headers are sent, the body is closed or the exchange
 * is closed.
 */
final class GuardedExchange extends HttpExchange {

  private final HttpExchange delegate;
  private final ExchangeCompletion completion;

  GuardedExchange(HttpExchange delegate, ExchangeCompletion completion) {
    this.delegate = delegate;
    this.completion = completion;
  }

  @Override
  public Headers getRequestHeaders() {
    return delegate.getRequestHeaders();
  }

  @Override
  public Headers getResponseHeaders() {
    return delegate.getResponseHeaders();
  }

  @Override
  public URI getRequestURI() {
    return delegate.getRequestURI();
  }

  @Override
  public String getRequestMethod() {
    return delegate.getRequestMethod();
  }

  @Override
  public HttpContext getHttpContext() {
    return delegate.getHttpContext();
  }

  @Override
  public void close() {
    try {
      delegate.close();
    } finally {
      completion.closed();
    }
  }

  @Override
  public InputStream getRequestBody() {
    return delegate.getRequestBody();
  }

  @Override
  public OutputStream getResponseBody() {
    return completion.body(delegate.getResponseBody());
  }

  @Override
  public void sendResponseHeaders(int code, long length) throws IOException {
    delegate.sendResponseHeaders(code, length);
    completion.headersSent(code, length);
  }

  @Override
  public InetSocketAddress getRemoteAddress() {
    return delegate.getRemoteAddress();
  }

  @Override
  public int getResponseCode() {
    return delegate.getResponseCode();
  }

  @Override
  public InetSocketAddress getLocalAddress() {
    return delegate.getLocalAddress();
  }

  @Override
  public String getProtocol() {
    return delegate.getProtocol();
  }

  @Override
  public @Nullable Object getAttribute(String name) {
    return delegate.getAttribute(name);
  }

  @Override
  public void setAttribute(String name, @Nullable Object value) {
    delegate.setAttribute(name, value);
  }

  @Override
  public void setStreams(@Nullable InputStream in, @Nullable OutputStream out) {
    delegate.setStreams(in, out);
  }

  @Override
  public @Nullable HttpPrincipal getPrincipal() {
    return delegate.getPrincipal();
  }
}
