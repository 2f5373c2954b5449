package dev.guard.examples;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.dashboard.GuardDashboard;
import dev.guard.spi.TimeSource;
import dev.guard.engine.GuardEngine;
import dev.guard.redis.RedisFleet;
import dev.guard.redis.RedisTokenService;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The demo's mode for several processes: each process offers {@value #OFFERED} calls per second to
 * a {@code checkout} endpoint whose limit of {@value #LIMIT} per second is shared through Redis,
 * and prints per second what it admitted and what all processes admitted together.
 *
 * <pre>
 * # in two terminals, within a few seconds of each other:
 * mvn -q -B -pl guard-examples -am compile exec:java -Dexec.args="--redis redis://127.0.0.1:6379"
 * </pre>
 *
 * <p>One process alone admits all it offers; two together offer {@code 2 × }{@value #OFFERED} and
 * admit {@value #LIMIT} per second between them. Each process also asks once a second for the
 * profile of one user, {@value #USER}, whose quota of {@value #USER_QUOTA} calls a minute is one
 * budget for every process (a per-value rule, {@code .clusterWide()}): alone a process spends it
 * in {@value #USER_QUOTA} seconds, two together in half that. Stop Redis while they run and each falls back to
 * the local limit. Seconds are the Redis server's, so both processes count the same seconds as the
 * shared window does; each admitted call is also counted in a Redis key of its second, which is
 * where the "all" column comes from.
 */
final class ClusterDemo {

  static final String MODE = "--redis";
  static final String DEFAULT_URI = "redis://127.0.0.1:6379";
  static final int DEFAULT_SECONDS = 30;
  static final int LIMIT = 40;
  static final int OFFERED = 30;
  static final String USER = "alice";
  static final int USER_QUOTA = 20;
  private static final String NAMESPACE = "guard-demo";
  /** How long after a second ends its row is printed, so that every process counted it. */
  private static final long ROW_DELAY_MS = 300;

  /** The command line: {@code --redis [uri] [seconds]}. */
  record Options(String uri, int seconds) {}

  private ClusterDemo() {}

  /**
   * Reads {@code --redis [uri] [seconds]}.
   *
   * @throws IllegalArgumentException if there are other arguments or the seconds are not from 1
   *     to {@value Demo#MAX_SECONDS}
   */
  static Options options(String[] args) {
    String uri = DEFAULT_URI;
    int seconds = DEFAULT_SECONDS;
    int next = 1;
    if (next < args.length && args[next].contains("://")) {
      uri = args[next++];
    }
    if (next < args.length) {
      seconds = Demo.options(new String[] {args[next++]}).seconds();
    }
    if (next < args.length || !args[0].equals(MODE)) {
      throw new IllegalArgumentException(
          "usage: Demo " + MODE + " [uri] [seconds], was " + String.join(" ", args));
    }
    return new Options(uri, seconds);
  }

  /** One row of the table; {@code user} is whether the user's call of that second was admitted. */
  static String row(int second, int offered, int admitted, long all, boolean user,
      boolean available) {
    return String.format(Locale.ROOT, "%6d %8d %14d %10s %8s  %s", second, offered, admitted,
        all < 0 ? "-" : Long.toString(all), user ? "admitted" : "refused",
        available ? "" : "Redis unavailable: the local limits decide").stripTrailing();
  }

  static List<String> header(Options options) {
    return List.of(
        "guard demo: 'checkout' gets " + OFFERED + " calls/s here; its limit of " + LIMIT
            + "/s is shared by every process on " + options.uri() + " (.clusterWide())",
        "start the same command in a second terminal: together they admit " + LIMIT
            + " per second",
        "'profile' is asked for " + USER + " once a second; " + USER + "'s quota of " + USER_QUOTA
            + " calls a minute is shared by every process (.perValue(..).clusterWide())",
        "",
        "second  offered  admitted here  all (Redis)  " + USER);
  }

  /**
   * Keeps the Redis client's own log lines (Lettuce and Netty log through java.util.logging here,
   * e.g. its reconnects at INFO) out of the table, unless a logging configuration is given with
   * {@code -Djava.util.logging.config.file=...}. Held here: java.util.logging keeps loggers weakly.
   */
  private static final List<Logger> CLIENT_LOGS =
      List.of(Logger.getLogger("io.lettuce"), Logger.getLogger("io.netty"));

  static void quietClientLogs() {
    if (System.getProperty("java.util.logging.config.file") == null
        && System.getProperty("java.util.logging.config.class") == null) {
      CLIENT_LOGS.forEach(logger -> logger.setLevel(Level.SEVERE));
    }
  }

  static void run(PrintStream out, Options options) throws InterruptedException {
    quietClientLogs();
    TimeSource time = GuardEngine.systemTime();
    GuardDashboard.Server dashboard = null;
    RedisFleet fleet = null;
    RedisClient client = RedisClient.create(options.uri());
    client.setOptions(ClientOptions.builder()
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .timeoutOptions(TimeoutOptions.enabled(Duration.ofMillis(200)))
        .build());
    // a generous request timeout: two demo processes and a build may share a laptop's cores
    try (RedisTokenService tokens = RedisTokenService.builder(options.uri(), NAMESPACE)
            .requestTimeout(Duration.ofMillis(100)).build();
        StatefulRedisConnection<String, String> counts = connect(client, options.uri())) {
      tokens.awaitConnected(Duration.ofSeconds(2)); // the first rows already shared
      GuardEngine engine = GuardEngine.builder().clock(time).tokenService(tokens).build();
      Guard checkout = Guard.of("checkout").qps(LIMIT).clusterWide().on(engine);
      Guard profile = Guard.of("profile").perValue(0, USER_QUOTA)
          .period(Duration.ofMinutes(1)).clusterWide().on(engine);
      boolean[] userAdmitted = new boolean[options.seconds()];
      // every process of the demo announces itself and its figures: the fleet page shows them all
      fleet = RedisFleet.builder(engine, options.uri(), NAMESPACE)
          .name("demo " + ProcessHandle.current().pid()).build().start();
      dashboard = Demo.dashboard(engine, null, fleet);
      out.println("This process's dashboard (the rule shows the instances sharing it): "
          + dashboard.browserUri());
      out.println("The fleet page (every process of the demo, their figures summed): "
          + fleetPage(dashboard.browserUri()));
      header(options).forEach(out::println);
      RedisAsyncCommands<String, String> redis = counts.async();
      List<String> now = counts.sync().time();
      long offsetMs = Long.parseLong(now.get(0)) * 1000 + Long.parseLong(now.get(1)) / 1000
          - time.nanoTime() / 1_000_000;
      long first = (time.nanoTime() / 1_000_000 + offsetMs) / 1000 + 1;
      AtomicIntegerArray offered = new AtomicIntegerArray(options.seconds());
      AtomicIntegerArray admitted = new AtomicIntegerArray(options.seconds());
      long periodNanos = 1_000_000_000L / OFFERED;
      long startNanos = (first * 1000 - offsetMs) * 1_000_000;
      long call = 0;
      for (int rows = 0; rows < options.seconds(); ) {
        long due = startNanos + call * periodNanos;
        long rowDue = ((first + rows + 1) * 1000 + ROW_DELAY_MS - offsetMs) * 1_000_000;
        if (rowDue - due <= 0) {
          time.sleep(rowDue - time.nanoTime());
          out.println(row(rows + 1, offered.get(rows), admitted.get(rows),
              all(counts, first + rows), userAdmitted[rows], tokens.available()));
          rows++;
          continue;
        }
        time.sleep(due - time.nanoTime());
        long index = call++;
        int second = (int) (index / OFFERED);
        if (second < options.seconds()) {
          if (index % OFFERED == 0) { // the second's first call: the user's one call too
            userAdmitted[second] = askForProfile(profile);
          }
          offered.incrementAndGet(second);
          if (checkout.callOrElse(() -> true, refused -> false)) {
            admitted.incrementAndGet(second);
            count(redis, first + second);
          }
        }
      }
    } finally {
      if (dashboard != null) {
        dashboard.close();
      }
      if (fleet != null) {
        fleet.close();
      }
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  /** One call of the user's profile: whether the user's shared quota admitted it. */
  private static boolean askForProfile(Guard profile) {
    try {
      return profile.callWithKey(USER, () -> true);
    } catch (RefusedException.PerValue refused) {
      return false;
    }
  }

  /** The fleet page's address, with the same login token as the dashboard's. */
  static String fleetPage(URI dashboard) {
    String query = dashboard.getRawQuery();
    return dashboard.resolve("fleet.html").toString() + (query == null ? "" : "?" + query);
  }

  /** Counts an admitted call in its second's key; not awaited: a lost count only shows in "all". */
  @SuppressWarnings("FutureReturnValueIgnored")
  private static void count(RedisAsyncCommands<String, String> redis, long second) {
    redis.incr(key(second));
    redis.expire(key(second), 60);
  }

  /** What every process admitted in a second, or -1 while Redis does not answer. */
  private static long all(StatefulRedisConnection<String, String> counts, long second) {
    try {
      String all = counts.sync().get(key(second));
      return all == null ? 0 : Long.parseLong(all);
    } catch (RedisException unavailable) {
      return -1;
    }
  }

  private static String key(long second) {
    return NAMESPACE + ":admitted:" + second;
  }

  private static StatefulRedisConnection<String, String> connect(RedisClient client, String uri) {
    try {
      return client.connect();
    } catch (RedisException unreachable) {
      throw new IllegalStateException("cannot reach Redis at " + uri + " (start one with "
          + "'redis-server', or name another with --redis URI): " + unreachable.getMessage(),
          unreachable);
    }
  }
}
