package dev.guard.examples;

import dev.guard.spi.TimeSource;
import dev.guard.dashboard.GuardDashboard;
import dev.guard.engine.GuardEngine;
import dev.guard.redis.RedisFleet;
import dev.guard.engine.NodeStats;
import dev.guard.api.rule.RuleSet;
import dev.guard.rules.RuleSources;
import dev.guard.spi.RuleSource;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;

/**
 * The guard demo: runs a small simulated service ({@link Shop}) under generated load for a few
 * seconds of real time, prints a live table of passed and refused calls per second, then a chart
 * and a summary per endpoint.
 *
 * <pre>
 * mvn -q -B -pl guard-examples -am compile exec:java                  # 16 seconds
 * mvn -q -B -pl guard-examples -am compile exec:java -Dexec.args=5    # 5 seconds
 * mvn -q -B -pl guard-examples -am compile exec:java -Dexec.args=--http # the shop over HTTP
 * mvn -q -B -pl guard-examples -am compile exec:java \
 *     -Dexec.args="60 --rules guard-examples/shop-rules.json"         # rules from a file
 * mvn -q -B -pl guard-examples -am compile exec:java \
 *     -Dexec.args="--redis redis://127.0.0.1:6379"   # one of several processes sharing a limit
 * </pre>
 *
 * <p>With {@code --rules FILE} the endpoints take their rules from the file, which is watched
 * while the demo runs: save a change and the next rows show it applied (or refused).
 *
 * <p>While it runs, the demo serves the guard dashboard on the loopback address (port {@value
 * #DASHBOARD_PORT}, or a free one if that is taken) and prints its address: open it to watch the
 * endpoints live and to change their rules (written to the rules file with {@code --rules}).
 */
public final class Demo {

  static final int DEFAULT_SECONDS = 16;
  static final String HTTP_MODE = "--http";
  static final int MAX_SECONDS = 600;
  static final int DASHBOARD_PORT = 8719;
  private static final long SECOND_NANOS = 1_000_000_000L;
  /** How long after a second ends its row is printed, so that calls decided at its end are in. */
  private static final long ROW_DELAY_NANOS = 50_000_000L;
  private static final int CHART_WIDTH = 60;

  private final PrintStream out;
  private final TimeSource time;
  private final int seconds;
  private final @Nullable RulesFile rulesFile;

  private Demo(PrintStream out, TimeSource time, Options options) {
    this.out = out;
    this.time = time;
    this.seconds = options.seconds();
    Path rules = options.rules();
    this.rulesFile = rules == null ? null : new RulesFile(rules);
  }

  /**
   * The command line.
   *
   * @param seconds the length of the run
   * @param rules the rules file, or null for the rules the shop declares in code
   */
  record Options(int seconds, @Nullable Path rules) {}

  /**
   * Runs the demo.
   *
   * @param args optionally the length of the run in whole seconds (default 16), and {@code
   *     --rules FILE} to take the rules from a watched file; or {@code --http [port]} to serve the
   *     shop over HTTP on the loopback interface (default port {@value ShopServer#DEFAULT_PORT})
   *     until the process is stopped; or {@code --redis [uri] [seconds]} to run as one of several
   *     processes sharing one limit through Redis
   * @throws InterruptedException if the main thread is interrupted while the demo runs
   * @throws IOException if the HTTP port cannot be bound
   */
  public static void main(String[] args) throws InterruptedException, IOException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    if (args.length > 0 && args[0].trim().equals(HTTP_MODE)) {
      // the JDK server sends headers and body in two writes; without TCP_NODELAY a client's
      // delayed acknowledgement holds every response back by about 40 ms
      System.setProperty("sun.net.httpserver.nodelay", "true");
      TimeSource time = GuardEngine.systemTime();
      GuardEngine engine = GuardEngine.builder().clock(time).build();
      ShopServer server = ShopServer.start(engine, time, httpPort(args));
      server.introduce(out);
      out.println();
      out.println("Watch it live: " + dashboard(engine, null).browserUri());
      new CountDownLatch(1).await(); // serve until the process is stopped
      return;
    }
    if (args.length > 0 && args[0].trim().equals(ClusterDemo.MODE)) {
      ClusterDemo.run(out, ClusterDemo.options(args));
      return;
    }
    new Demo(out, GuardEngine.systemTime(), options(args)).run();
    out.flush();
  }

  /**
   * Reads the port of the HTTP mode from the arguments {@code --http [port]}.
   *
   * @throws IllegalArgumentException if there are more arguments or the port is not from 0 to
   *     65535
   */
  static int httpPort(String[] args) {
    if (args.length == 1) {
      return ShopServer.DEFAULT_PORT;
    }
    if (args.length > 2) {
      throw new IllegalArgumentException(
          "usage: Demo " + HTTP_MODE + " [port], was " + String.join(" ", args));
    }
    int port;
    try {
      port = Integer.parseInt(args[1].trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("port must be a whole number, was '" + args[1] + "'", e);
    }
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be from 0 to 65535, was " + port);
    }
    return port;
  }

  /**
   * Reads the command line: {@code [seconds] [--rules FILE]}, in any order.
   *
   * @throws IllegalArgumentException if an argument is unknown or repeated, or the run length is
   *     not a number of seconds from 1 to {@value #MAX_SECONDS}
   */
  static Options options(String[] args) {
    Integer seconds = null;
    Path rules = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--rules") && rules == null && i + 1 < args.length) {
        rules = Path.of(args[++i]);
      } else if (seconds == null && !args[i].startsWith("--")) {
        seconds = seconds(args[i]);
      } else {
        throw new IllegalArgumentException(
            "usage: Demo [seconds] [--rules FILE], was " + String.join(" ", args));
      }
    }
    return new Options(seconds == null ? DEFAULT_SECONDS : seconds, rules);
  }

  private static int seconds(String arg) {
    int seconds;
    try {
      seconds = Integer.parseInt(arg.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "seconds must be a whole number, was '" + arg + "'", e);
    }
    if (seconds < 1 || seconds > MAX_SECONDS) {
      throw new IllegalArgumentException(
          "seconds must be from 1 to " + MAX_SECONDS + ", was " + seconds);
    }
    return seconds;
  }

  private void run() throws InterruptedException {
    List<Endpoint> rehearsal = Shop.endpoints(GuardEngine.builder().clock(time).build());
    loadClasses(rehearsal);
    List<Endpoint> shown = rehearsal;
    if (rulesFile != null) {
      RuleSet fromFile = rulesFile.read(); // checks the file before the run and loads its classes
      shown = Shop.endpoints(GuardEngine.builder().clock(time).build(),
          name -> RulesFile.describe(fromFile.rulesOf(name)));
    }
    introduce(shown);

    // engine time starts when the engine is built: starting the count just before makes the
    // demo's seconds line up with the engine's windows (and the warm-up's once-a-second update)
    long start = time.nanoTime();
    GuardEngine.Builder builder = GuardEngine.builder().clock(time);
    if (rulesFile != null) {
      rulesFile.listenTo(builder);
    }
    GuardEngine engine = builder.build();
    RuleSource.Writable source = rulesFile == null ? null : rulesFile.attach(engine);
    List<Endpoint> endpoints = source == null ? Shop.endpoints(engine) : Shop.endpoints(engine,
        name -> RulesFile.describe(engine.rules(name)));
    List<EndpointMeter> meters = new ArrayList<>();
    for (Endpoint endpoint : endpoints) {
      meters.add(new EndpointMeter(endpoint, start, seconds));
    }
    LoadGenerator load = new LoadGenerator(time, endpoints.size());
    List<Double> averageRts = new ArrayList<>();
    GuardDashboard.Server dashboard = null;
    try {
      load.start(meters, start, start + seconds * SECOND_NANOS);
      dashboard = dashboard(engine, source);
      out.println("Live dashboard while the demo runs: " + dashboard.browserUri());
      out.println();
      printLive(meters, start);
      // the engine's average RT covers its last second, so read it before the traffic stops
      for (Endpoint endpoint : endpoints) {
        averageRts.add(engine.stats(endpoint.name()).averageRt());
      }
    } finally {
      load.finish();
      if (dashboard != null) {
        dashboard.close();
      }
      if (source != null) {
        source.close();
      }
    }
    if (meters.stream().anyMatch(meter -> meter.counters().late() > 0)) {
      out.println(LiveTable.row(seconds, meters));
    }

    printCharts(meters);
    printSummary(engine, meters, averageRts);
  }

  /**
   * Serves the dashboard of an engine on the loopback address, on {@value #DASHBOARD_PORT} or, if
   * that port is taken, a free one; rule edits go to the rules file when there is one.
   */
  static GuardDashboard.Server dashboard(GuardEngine engine, RuleSource.@Nullable Writable rules) {
    return dashboard(engine, rules, null);
  }

  /** The dashboard, showing the engine's fleet too when there is one. */
  static GuardDashboard.Server dashboard(GuardEngine engine, RuleSource.@Nullable Writable rules,
      @Nullable RedisFleet fleet) {
    UncheckedIOException taken = null;
    for (int port : new int[] {DASHBOARD_PORT, 0}) {
      GuardDashboard.Builder builder = GuardDashboard.builder(engine).port(port);
      if (rules != null) {
        builder.ruleSource(rules);
      }
      if (fleet != null) {
        builder.fleet(fleet);
      }
      try {
        return builder.build().start();
      } catch (UncheckedIOException e) {
        taken = e;
      }
    }
    throw java.util.Objects.requireNonNull(taken);
  }

  /**
   * Makes one call per endpoint on a throw-away engine, so that the first second of the run is not
   * spent loading guard's classes (the very first call takes well over 100 ms).
   */
  private static void loadClasses(List<Endpoint> rehearsal) {
    for (Endpoint endpoint : rehearsal) {
      if (endpoint.callers().isEmpty()) {
        endpoint.guard().run(() -> {});
      } else {
        endpoint.guard().callWithKey(endpoint.caller(0), () -> Boolean.TRUE);
      }
    }
  }

  private void introduce(List<Endpoint> endpoints) {
    out.println("guard demo: " + seconds + " s of generated load on " + endpoints.size()
        + " guarded endpoints"
        + (rulesFile == null ? "" : ", rules from " + rulesFile.file() + " (watched)"));
    out.println();
    for (Endpoint endpoint : endpoints) {
      out.println(String.format(Locale.ROOT, "  %-9s %-30s %s",
          endpoint.name(), endpoint.rule(), endpoint.traffic()));
      out.println("            " + endpoint.watch());
    }
    out.println();
  }

  private void printLive(List<EndpointMeter> meters, long start) throws InterruptedException {
    List<String> names = new ArrayList<>();
    meters.forEach(meter -> names.add(meter.name()));
    LiveTable.header(names).forEach(out::println);
    for (int second = 0; second < seconds; second++) {
      long due = start + (second + 1) * SECOND_NANOS + ROW_DELAY_NANOS;
      time.sleep(due - time.nanoTime());
      if (rulesFile != null) {
        rulesFile.drain().forEach(news -> out.println("  >> " + news));
      }
      out.println(LiveTable.row(second, meters));
    }
  }

  private void printCharts(List<EndpointMeter> meters) {
    TerminalChart chart = new TerminalChart(CHART_WIDTH);
    for (EndpointMeter meter : meters) {
      Endpoint endpoint = meter.endpoint();
      out.println();
      String title = endpoint.name() + " · " + endpoint.rule();
      chart.render(title, meter.counters().passedPerSecond(), meter.counters().failedPerSecond(),
              meter.counters().refusedPerSecond())
          .forEach(out::println);
    }
  }

  private void printSummary(GuardEngine engine, List<EndpointMeter> meters, List<Double> rts) {
    List<Summary.Line> lines = new ArrayList<>();
    for (int i = 0; i < meters.size(); i++) {
      EndpointMeter meter = meters.get(i);
      NodeStats stats = engine.stats(meter.name());
      lines.add(new Summary.Line(meter.name(), meter.counters().totalPassed(),
          meter.counters().totalRefused(), seconds, rts.get(i),
          meter.admissions().medianGapMillis(), meter.peakRunning(), stats.totalPass(),
          stats.totalRefused()));
    }
    out.println();
    Summary.render(lines).forEach(out::println);
    java.util.Map<String, List<dev.guard.api.PeriodStats>> histories =
        new java.util.LinkedHashMap<>();
    for (EndpointMeter meter : meters) {
      histories.put(meter.name(), engine.metricsHistory(meter.name()));
    }
    out.println();
    Summary.fromHistory(histories).forEach(out::println);
    for (EndpointMeter meter : meters) {
      List<String> users = meter.endpoint().users();
      if (!users.isEmpty()) {
        long[] passed = new long[users.size()];
        long[] refused = new long[users.size()];
        for (int i = 0; i < users.size(); i++) {
          passed[i] = meter.passedOf(users.get(i));
          refused[i] = meter.refusedOf(users.get(i));
        }
        out.println();
        Summary.perUser(meter.name(), users, passed, refused, seconds).forEach(out::println);
      }
    }
  }
}
