package dev.guard.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsExchange;
import java.io.IOException;
import java.io.OutputStream;
import org.jspecify.annotations.Nullable;

/**
 * Watches one exchange of the JDK server through a wrapper given to the handler, and finishes the
 * request's {@link Admission} (which exits once) when the response is complete: the body (or the
 * exchange) is closed, headers were sent with no body to follow, or the handler failed. I/O errors
 * writing the body are recorded on the admission.
 */
final class ExchangeCompletion {

  private final Admission admission;
  private final HttpExchange exchange;
  private final boolean head;
  private volatile int status = -1;
  private @Nullable OutputStream body;
  private @Nullable OutputStream bodyOriginal;

  ExchangeCompletion(Admission admission, HttpExchange exchange) {
    this.admission = admission;
    this.head = "HEAD".equalsIgnoreCase(exchange.getRequestMethod());
    this.exchange = exchange instanceof HttpsExchange tls
        ? new GuardedHttpsExchange(tls, this)
        : new GuardedExchange(exchange, this);
  }

  /** The wrapper to hand to the handler. */
  HttpExchange exchange() {
    return exchange;
  }

  boolean responseStarted() {
    return status >= 0;
  }

  void headersSent(int code, long length) {
    status = code;
    if (length == -1 || head || code < 200 || code == 204 || code == 304) {
      finish();
    }
  }

  /**
   * The response body stream, wrapped so that closing it completes the response; wrapped again
   * only if the server's stream changed (a later filter replaced it).
   */
  synchronized OutputStream body(OutputStream original) {
    OutputStream wrapped = body;
    if (wrapped == null || bodyOriginal != original) {
      wrapped = new Body(original);
      body = wrapped;
      bodyOriginal = original;
    }
    return wrapped;
  }

  void closed() {
    finish();
  }

  void fail(Throwable error) {
    admission.failed(error);
    finish();
  }

  private void finish() {
    admission.finish(status);
  }

  /** The response body: remembers I/O errors and completes the response when closed. */
  private final class Body extends OutputStream {

    private final OutputStream out;

    Body(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      try {
        out.write(b);
      } catch (IOException e) {
        admission.failed(e);
        throw e;
      }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      try {
        out.write(bytes, offset, length);
      } catch (IOException e) {
        admission.failed(e);
        throw e;
      }
    }

    @Override
    public void flush() throws IOException {
      try {
        out.flush();
      } catch (IOException e) {
        admission.failed(e);
        throw e;
      }
    }

    @Override
    public void close() throws IOException {
      try {
        out.close();
      } catch (IOException e) {
        admission.failed(e);
        throw e;
      } finally {
        finish();
      }
    }
  }
}
