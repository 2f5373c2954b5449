package dev.guard.dashboard;

import dev.guard.dashboard.internal.Access;
import dev.guard.dashboard.internal.DashboardCore;
import dev.guard.dashboard.internal.JdkServer;
import dev.guard.engine.GuardEngine;
import dev.guard.redis.RedisFleet;
import dev.guard.spi.RuleSource;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A live dashboard for one engine: its resources with live charts, the rules in force with their
 * state, refusals by kind and origin, the rule history with roll-back, rule edits, and the JSON
 * API behind the pages (docs/DASHBOARD.md). One call serves it on the JDK's HTTP server, bound to
 * the loopback address:
 *
 * <pre>{@code
 * GuardDashboard.Server dashboard = GuardDashboard.of(engine).start();   // a free port
 * System.out.println("guard dashboard: " + dashboard.browserUri());
 * }</pre>
 *
 * <p>Security: on a loopback address without a secret, reads are open to local clients and rule
 * changes need the dashboard's random access token ({@link Server#browserUri()}). On any
 * other address an access token or basic credentials are required, and every request must carry
 * one. Rule changes always need a secret, and a header cross-site requests cannot send. A
 * browser's session ends after 30 idle minutes or 12 hours, or at logout; failed logins are
 * throttled per client address; on the JDK server each request has a deadline ({@link
 * Builder#requestTimeout}). In a servlet container mount {@link #servlet()}, which always
 * needs a configured secret (docs/DASHBOARD.md, "Security").
 *
 * <pre>{@code
 * GuardDashboard dashboard = GuardDashboard.builder(engine)
 *     .port(8719)
 *     .bindAddress(InetAddress.getByName("0.0.0.0"))
 *     .accessToken(System.getenv("GUARD_DASHBOARD_TOKEN"))
 *     .ruleSource(fileRules)               // edits are written to the rule file
 *     .build();
 * GuardDashboard.Server server = dashboard.start();
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe; one may be started several times (on different
 * ports) and mounted as a servlet at the same time.
 */
public final class GuardDashboard {

  /** How long reading a request may take by default (and then writing its response). */
  private static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

  private final GuardEngine engine;
  private final int port;
  private final InetAddress bindAddress;
  private final @Nullable String accessToken;
  private final @Nullable String user;
  private final @Nullable String password;
  private final RuleSource.@Nullable Writable ruleSource;
  private final Duration requestTimeout;
  private final Access access;
  private final DashboardCore core;

  private GuardDashboard(Builder builder) {
    this.engine = builder.engine;
    this.port = builder.port == null ? 0 : builder.port;
    this.bindAddress = builder.bindAddress == null
        ? InetAddress.getLoopbackAddress() : builder.bindAddress;
    this.accessToken = builder.accessToken;
    this.user = builder.user;
    this.password = builder.password;
    this.ruleSource = builder.ruleSource;
    this.requestTimeout = builder.requestTimeout == null
        ? DEFAULT_REQUEST_TIMEOUT : builder.requestTimeout;
    boolean secret = hasSecret();
    if (!secret && !bindAddress.isLoopbackAddress()) {
      throw new IllegalArgumentException("bindAddress " + bindAddress.getHostAddress()
          + " is not a loopback address: set accessToken(..) or credentials(..) so that only"
          + " authenticated requests reach the dashboard");
    }
    this.access = Access.of(accessToken, user, password, !secret, engine::timeMs);
    this.core = new DashboardCore(engine, access, ruleSource, builder.fleet);
  }

  /**
   * Returns a dashboard for an engine with the default settings: the loopback address, a free
   * port, no secret of its own (rule changes need its random token), edits through its own memory
   * source.
   *
   * @param engine the engine to show
   * @return the dashboard, not started
   */
  public static GuardDashboard of(GuardEngine engine) {
    return builder(engine).build();
  }

  /**
   * Starts configuring a dashboard for an engine.
   *
   * @param engine the engine to show
   * @return a new builder
   */
  public static Builder builder(GuardEngine engine) {
    return new Builder(Objects.requireNonNull(engine, "engine"));
  }

  /**
   * Serves this dashboard on the JDK's HTTP server at the configured address and port, on up to
   * 64 daemon worker threads from the engine's {@linkplain GuardEngine#threads() thread factory},
   * each request with the {@linkplain Builder#requestTimeout deadline}
   * (docs/DASHBOARD.md, "Slow clients").
   *
   * @return the running server
   * @throws UncheckedIOException if the address cannot be bound
   */
  public Server start() {
    return new Server(JdkServer.start(core, bindAddress, port, requestTimeout, engine.threads()),
        access.loginToken());
  }

  /**
   * Returns the dashboard as a Jakarta Servlet (Servlet 6), for applications that run in a
   * servlet container: the same pages and JSON API as {@link #start()}, below the path the servlet
   * is mapped to (a path ending in {@code /*}); this dashboard's port and bind address are not
   * used. A container listens on addresses the dashboard cannot see, so the servlet needs an
   * access token or credentials, and every request, reads included, must be authenticated; its
   * session cookie is marked Secure when the request came over HTTPS.
   *
   * <pre>{@code
   * GuardDashboard dashboard = GuardDashboard.builder(engine)
   *     .accessToken(System.getenv("GUARD_DASHBOARD_TOKEN"))
   *     .build();
   * servletContext.addServlet("guard-dashboard", dashboard.servlet()).addMapping("/guard/*");
   * }</pre>
   *
   * @return a new servlet serving this dashboard
   * @throws IllegalArgumentException if the dashboard has neither an access token nor credentials
   */
  @SuppressWarnings("exports") // the Servlet API is the container's; users compile against it anyway
  public jakarta.servlet.http.HttpServlet servlet() {
    return ServletMount.servlet(this);
  }

  /** Whether an access token or credentials were configured. */
  boolean hasSecret() {
    return accessToken != null || user != null;
  }

  /** The request-handling core shared with the servlet. */
  DashboardCore core() {
    return core;
  }

  /** The engine shown. */
  GuardEngine engine() {
    return engine;
  }

  @Override
  public String toString() {
    return "GuardDashboard[" + bindAddress.getHostAddress() + ":" + port
        + (hasSecret() ? ", authenticated" : ", loopback") + ", rules via "
        + (ruleSource == null ? "memory:dashboard" : ruleSource.name()) + "]";
  }

  /**
   * Configures a {@link GuardDashboard}. Every option may be set at most once (a second value is
   * an error).
   */
  public static final class Builder {

    private final GuardEngine engine;
    private @Nullable Integer port;
    private @Nullable InetAddress bindAddress;
    private @Nullable String accessToken;
    private @Nullable String user;
    private @Nullable String password;
    private RuleSource.@Nullable Writable ruleSource;
    private @Nullable Duration requestTimeout;
    private @Nullable RedisFleet fleet;

    private Builder(GuardEngine engine) {
      this.engine = engine;
    }

    /**
     * Sets the TCP port of {@link GuardDashboard#start()} (default 0: a free port, see {@link
     * Server#uri()}).
     *
     * @param port from 0 to 65535
     * @return this builder
     * @throws IllegalArgumentException if out of range
     * @throws IllegalStateException if already set
     */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be from 0 to 65535, was " + port);
      }
      this.port = once("port", this.port, port);
      return this;
    }

    /**
     * Sets the address {@link GuardDashboard#start()} listens on (default: the loopback address,
     * so only this machine can connect). Any other address needs {@link #accessToken} or {@link
     * #credentials}.
     *
     * @param address the local address, such as {@code InetAddress.getByName("0.0.0.0")}
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder bindAddress(InetAddress address) {
      Objects.requireNonNull(address, "bindAddress");
      this.bindAddress = once("bindAddress", this.bindAddress, address);
      return this;
    }

    /**
     * Sets the access token: requests carry it as {@code Authorization: Bearer <token>}, and a
     * browser logs in once with it (the login page, or {@code ?token=} on a page) and then holds
     * an HttpOnly session cookie. May be combined with {@link #credentials}.
     *
     * @param token at least 16 characters
     * @return this builder
     * @throws IllegalArgumentException if shorter than 16 characters
     * @throws IllegalStateException if already set
     */
    public Builder accessToken(String token) {
      Objects.requireNonNull(token, "accessToken");
      if (token.length() < 16) {
        throw new IllegalArgumentException(
            "accessToken must be at least 16 characters, was " + token.length());
      }
      this.accessToken = once("accessToken", this.accessToken, token);
      return this;
    }

    /**
     * Sets basic-authentication credentials: requests carry them as {@code Authorization: Basic};
     * a browser asks for them. Use them over HTTPS (a servlet container's), or on a trusted
     * network: basic authentication sends the password with every request.
     *
     * @param user the user name; not blank, no {@code ':'}
     * @param password the password; at least 8 characters
     * @return this builder
     * @throws IllegalArgumentException if the user is blank or has a colon, or the password is short
     * @throws IllegalStateException if already set
     */
    public Builder credentials(String user, String password) {
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(password, "password");
      if (user.isBlank() || user.indexOf(':') >= 0) {
        throw new IllegalArgumentException(
            "user must not be blank or contain ':', was \"" + user + "\"");
      }
      if (password.length() < 8) {
        throw new IllegalArgumentException(
            "password must be at least 8 characters, was " + password.length());
      }
      this.user = once("credentials", this.user, user);
      this.password = password;
      return this;
    }

    /**
     * Sets where rule edits and roll-backs are written (default: a {@code memory:dashboard}
     * source that the dashboard creates from the rules in force and attaches to the engine at
     * the first edit). The source should be attached to the engine already, so that a written
     * set is applied (and an invalid one refused) before it is stored.
     *
     * @param source the writable source, such as {@code RuleSources.file(path)}
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder ruleSource(RuleSource.Writable source) {
      Objects.requireNonNull(source, "ruleSource");
      this.ruleSource = once("ruleSource", this.ruleSource, source);
      return this;
    }

    /**
     * Shows the fleet this engine belongs to: the fleet page ({@code fleet.html}) and {@code GET
     * api/fleet} list every instance of its namespace with each resource's figures summed over
     * the fleet and per instance (docs/DASHBOARD.md, "The fleet"). Needs guard-redis on the class
     * path; the fleet is the application's to start and close.
     *
     * @param fleet the engine's place in its fleet
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder fleet(RedisFleet fleet) {
      Objects.requireNonNull(fleet, "fleet");
      this.fleet = once("fleet", this.fleet, fleet);
      return this;
    }

    /**
     * Sets how long {@link GuardDashboard#start()}'s server waits for a request (line, headers
     * and body) once its first bytes arrived, and then again for its response to be written
     * (default 10 seconds). A client slower than that is cut off: its connection is closed and
     * its worker serves others. In a servlet container the container's timeouts apply instead.
     *
     * @param timeout positive
     * @return this builder
     * @throws IllegalArgumentException if zero or negative
     * @throws IllegalStateException if already set
     */
    public Builder requestTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "requestTimeout");
      if (timeout.isZero() || timeout.isNegative()) {
        throw new IllegalArgumentException("requestTimeout must be positive, was " + timeout);
      }
      this.requestTimeout = once("requestTimeout", this.requestTimeout, timeout);
      return this;
    }

    /**
     * Builds the dashboard (nothing is served until {@link GuardDashboard#start()}).
     *
     * @return the dashboard
     * @throws IllegalArgumentException if the bind address is not a loopback address and neither
     *     an access token nor credentials are set
     */
    public GuardDashboard build() {
      return new GuardDashboard(this);
    }

    private static <T> T once(String option, @Nullable T current, T value) {
      if (current != null) {
        throw new IllegalStateException(option + " is already set");
      }
      return value;
    }
  }

  /**
   * A dashboard running on the JDK's built-in HTTP server, as {@link GuardDashboard#start()}
   * returns it. Close it to stop serving; the engine and its rules are
   * not affected.
   *
   * <pre>{@code
   * try (GuardDashboard.Server dashboard = GuardDashboard.of(engine).start()) {
   *   System.out.println("guard dashboard: " + dashboard.browserUri());
   *   ...
   * }
   * }</pre>
   */
  public static final class Server implements AutoCloseable {

    private final JdkServer server;
    private final String loginToken;

    private Server(JdkServer server, String loginToken) {
      this.server = server;
      this.loginToken = loginToken;
    }

    /**
     * Returns where the dashboard is served: scheme, address and the port it is bound to (the
     * actual one when port 0 asked for a free port), ending in {@code /}. The JSON API is below it
     * ({@code uri().resolve("api/resources")}).
     *
     * @return the base address
     */
    public URI uri() {
      return server.uri();
    }

    /**
     * Returns the address to open in a browser: {@link #uri()} with the access token as {@code
     * ?token=}, which logs the browser in (an HttpOnly session cookie) and is then dropped from the
     * address bar. Without a configured token this is the dashboard's own random token, the only
     * way to make rule changes from the browser; print it only where the person who runs the
     * application can see it.
     *
     * @return the login address
     */
    public URI browserUri() {
      return URI.create(server.uri() + "?token=" + URLEncoder.encode(loginToken, StandardCharsets.UTF_8));
    }

    /** Stops the server at once; requests in progress are cut off. Closing twice does nothing. */
    @Override
    public void close() {
      server.close();
    }

    @Override
    public String toString() {
      return "GuardDashboard.Server[" + server.uri() + "]";
    }
  }
}
