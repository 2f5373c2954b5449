package dev.guard.http;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** The test application on an embedded Jetty 12 (ee10 servlets) behind {@link GuardServletFilter}. */
final class JettyTestServer implements TestServer {

  private final Server server;
  private final ServerConnector connector;
  private final GuardServletFilter guard;
  private final ExecutorService workers = Executors.newCachedThreadPool();

  private JettyTestServer(TestApp app, HttpInbound inbound, UriCompliance uris) throws Exception {
    server = new Server();
    connector = new ServerConnector(server);
    connector.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration()
        .setUriCompliance(uris);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    guard = GuardServletFilter.of(inbound);
    ServletContextHandler context = new ServletContextHandler("/");
    context.addFilter(holder(new Finished(app)), "/*", EnumSet.of(DispatcherType.REQUEST));
    context.addFilter(holder(guard), "/*", EnumSet.of(DispatcherType.REQUEST));
    ServletHolder servlet = new ServletHolder(new App(app, workers));
    servlet.setAsyncSupported(true);
    context.addServlet(servlet, "/*");
    server.setHandler(context);
    server.start();
  }

  static JettyTestServer start(TestApp app, HttpInbound inbound) throws Exception {
    return new JettyTestServer(app, inbound, UriCompliance.DEFAULT);
  }

  /** Starts the application on a Jetty that accepts URIs as this compliance mode says. */
  static JettyTestServer start(TestApp app, HttpInbound inbound, UriCompliance uris)
      throws Exception {
    return new JettyTestServer(app, inbound, uris);
  }

  private static FilterHolder holder(Filter filter) {
    FilterHolder holder = new FilterHolder(filter);
    holder.setAsyncSupported(true);
    return holder;
  }

  @Override
  public URI base() {
    return URI.create("http://127.0.0.1:" + connector.getLocalPort());
  }

  @Override
  public long overflows() {
    return guard.overflows();
  }

  @Override
  public void close() throws Exception {
    server.stop();
    workers.shutdownNow();
  }

  /** Outside the guard filter: tells the test when the server is done with a request. */
  private static final class Finished implements Filter {

    private final TestApp app;

    Finished(TestApp app) {
      this.app = app;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
        throws IOException, ServletException {
      try {
        chain.doFilter(request, response);
      } finally {
        if (request.isAsyncStarted()) {
          request.getAsyncContext().addListener(new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
              app.finished.release();
            }

            @Override
            public void onTimeout(AsyncEvent event) {}

            @Override
            public void onError(AsyncEvent event) {}

            @Override
            public void onStartAsync(AsyncEvent event) {}
          });
          app.dispatchReturned.countDown();
        } else {
          app.finished.release();
        }
      }
    }
  }

  /** The routes of {@link TestApp} as a servlet. */
  private static final class App extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private final transient TestApp app;
    private final transient ExecutorService workers;

    App(TestApp app, ExecutorService workers) {
      this.app = app;
      this.workers = workers;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      app.handled.incrementAndGet();
      String path = request.getRequestURI();
      switch (TestApp.route(path)) {
        case "status" -> answer(response, TestApp.statusOf(path), "status");
        case "throw" -> throw new IllegalStateException("boom");
        case "async" -> {
          AsyncContext async = request.startAsync();
          async.setTimeout(TestApp.WAIT_SECONDS * 1000);
          workers.execute(() -> {
            TestApp.await(app.release);
            try {
              answer((HttpServletResponse) async.getResponse(), 200, "async done");
            } catch (IOException e) {
              throw new IllegalStateException(e);
            } finally {
              async.complete();
            }
          });
        }
        case "stream" -> app.stream(response.getOutputStream());
        case "async-stream" -> {
          AsyncContext async = request.startAsync();
          async.setTimeout(TestApp.WAIT_SECONDS * 1000);
          workers.execute(() -> {
            try {
              app.stream(async.getResponse().getOutputStream());
            } catch (IOException e) {
              // the client went away
            } finally {
              async.complete();
            }
          });
        }
        case "nested" -> answer(response, 200, app.nested());
        case "empty" -> response.setStatus(204);
        default -> answer(response, 200, "order");
      }
    }

    private static void answer(HttpServletResponse response, int status, String body)
        throws IOException {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      response.setStatus(status);
      response.setContentType("text/plain");
      response.setContentLength(bytes.length);
      response.getOutputStream().write(bytes);
    }
  }
}
