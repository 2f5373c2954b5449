package dev.guard.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.engine.GuardEngine;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The application both test servers serve, the same routes on Jetty (a servlet) and on the JDK
 * server (a handler), and the signals tests wait on. Every wait is bounded.
 *
 * <ul>
 *   <li>{@code /orders/*}: 200 "order";
 *   <li>{@code /status/N}: status N;
 *   <li>{@code /throw}: the handler throws;
 *   <li>{@code /async}: the handler returns at once; another thread answers 200 once {@link
 *       #release} is counted down;
 *   <li>{@code /stream}: writes chunks until the client goes away;
 *   <li>{@code /async-stream}: the same from another thread, after the handler returned;
 *   <li>{@code /nested}: calls the guarded resource {@code inner} and answers 200;
 *   <li>{@code /empty}: 204 without a body (the JDK handler does not even close the exchange).
 * </ul>
 */
final class TestApp {

  static final long WAIT_SECONDS = 10;
  static final int CHUNK = 8192;
  static final int MAX_CHUNKS = 20_000;

  final GuardEngine engine;
  /** Released once per request when the server is done with it (after the guard filter). */
  final Semaphore finished = new Semaphore(0);
  /** Counted down when the dispatch of an async request has returned from the filters. */
  final CountDownLatch dispatchReturned = new CountDownLatch(1);
  /** Lets the async request's answer go. */
  final CountDownLatch release = new CountDownLatch(1);
  /** Counted down once the streaming response has sent its first chunk. */
  final CountDownLatch streaming = new CountDownLatch(1);
  /** Requests that reached a handler. */
  final AtomicInteger handled = new AtomicInteger();

  TestApp(GuardEngine engine) {
    this.engine = engine;
  }

  /** The route of a path: its first segment. */
  static String route(String path) {
    String[] segments = path.split("/");
    return segments.length > 1 ? segments[1] : "";
  }

  static int statusOf(String path) {
    return Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
  }

  /** Runs the nested guarded call of {@code /nested}. */
  String nested() {
    return engine.resource("inner").call("inner", input -> "nested " + input);
  }

  /** Writes chunks until writing fails (the client went away) or the bound is reached. */
  void stream(OutputStream out) throws IOException {
    byte[] chunk = new byte[CHUNK];
    for (int i = 0; i < MAX_CHUNKS; i++) {
      out.write(chunk);
      out.flush();
      streaming.countDown();
    }
  }

  static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("latch within bound").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Waits until the server is done with {@code requests} more requests. */
  void awaitFinished(int requests) throws InterruptedException {
    assertThat(finished.tryAcquire(requests, WAIT_SECONDS, TimeUnit.SECONDS))
        .as("%s requests finished on the server", requests).isTrue();
  }
}
