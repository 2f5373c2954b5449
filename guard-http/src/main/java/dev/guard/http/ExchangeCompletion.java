package dev.guard.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsExchange;
import dev.guard.api.Entry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * Watches one exchange of the JDK server through a wrapper given to the handler, and exits the
 * request's entry exactly once when the response is complete: the body (or the exchange) is
 * closed, headers were sent with no body to follow, or the handler failed. I/O errors writing the
 * body are remembered and recorded at exit.
 */
final class ExchangeCompletion {

  private final InboundGate gate;
  private final Entry entry;
  private final HttpExchange exchange;
  private final boolean head;
  private final AtomicBoolean finished = new AtomicBoolean();
  private volatile int status = -1;
  private volatile @Nullable Throwable failure;
  private volatile boolean refusal;
  private @Nullable OutputStream body;
  private @Nullable OutputStream bodyOriginal;

  ExchangeCompletion(InboundGate gate, Entry entry, HttpExchange exchange) {
    this.gate = gate;
    this.entry = entry;
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

  /** The response about to be sent is a refusal met inside the handler: no error of the request. */
  void answeringRefusal() {
    refusal = true;
  }

  void fail(Throwable error) {
    failure = error;
    finish();
  }

  private void finish() {
    if (finished.compareAndSet(false, true)) {
      if (refusal && failure == null) {
        entry.close();
      } else {
        gate.finish(entry, status, failure);
      }
    }
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
        failure = e;
        throw e;
      }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      try {
        out.write(bytes, offset, length);
      } catch (IOException e) {
        failure = e;
        throw e;
      }
    }

    @Override
    public void flush() throws IOException {
      try {
        out.flush();
      } catch (IOException e) {
        failure = e;
        throw e;
      }
    }

    @Override
    public void close() throws IOException {
      try {
        out.close();
      } catch (IOException e) {
        failure = e;
        throw e;
      } finally {
        finish();
      }
    }
  }
}
