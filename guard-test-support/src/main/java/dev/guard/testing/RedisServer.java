package dev.guard.testing;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;

/**
 * A real {@code redis-server} process on loopback, without persistence, started and stopped by a
 * test. Fails loudly (never skips) when {@code redis-server} is not installed.
 *
 * <p>The server binds its port itself: a start picks a port at random and reads the server's log
 * until it says {@value #READY}; when it exits saying the address is in use instead (another
 * process holds the port, or the cluster bus port beside it), the start tries again on another
 * port. No port is probed and released before the server binds it, so nothing can take it in
 * between. The ports are drawn below Linux's range of ephemeral ports (32768 and up), where the
 * kernel does not hand out ports to outgoing connections.
 *
 * <pre>{@code
 * try (RedisServer redis = RedisServer.start()) {
 *   RedisTokenService service = RedisTokenService.builder(redis.uri(), "shop").build();
 * }
 * }</pre>
 */
public final class RedisServer implements AutoCloseable {

  /** What redis-server logs once it listens on its port(s). */
  static final String READY = "Ready to accept connections";

  /** What redis-server logs when a port it must bind is taken. */
  static final String ADDRESS_IN_USE = "Address already in use";

  /** The longest wait for a server to say it is ready, or for redis-cli to finish. */
  static final Duration PATIENCE = Duration.ofSeconds(30);

  /** How many ports a start tries before it gives up. */
  static final int TRIES = 20;

  /** The lowest port drawn; the highest is {@link #HIGHEST_PORT}. */
  private static final int LOWEST_PORT = 10_000;

  /** Keeps a port and its cluster bus port (port + 10000) below the ephemeral range. */
  private static final int HIGHEST_PORT = 22_767;

  /**
   * How a kind of server is started on a port: its command line, given the port and a fresh,
   * empty directory of its own (for its files), and what it logs once it is ready.
   */
  interface Shape {
    /** The command line, the executable first; it must bind {@code port} on 127.0.0.1. */
    List<String> command(int port, Path dir) throws IOException;

    /** What the server logs once it listens. */
    default String ready() {
      return READY;
    }
  }

  /** A plain server, its configuration given as arguments after the defaults. */
  static Shape plain(List<String> config) {
    return (port, dir) -> {
      List<String> command = new ArrayList<>(List.of(executable("redis-server"),
          "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "",
          "--appendonly", "no", "--dir", dir.toString()));
      command.addAll(config);
      return command;
    };
  }

  private final int port;
  private final Shape shape;
  private Launch launch;

  private RedisServer(int port, Shape shape, Launch launch) {
    this.port = port;
    this.shape = shape;
    this.launch = launch;
  }

  /**
   * Starts a server on a port of its own.
   *
   * @return the running server, ready for connections
   * @throws IOException when the process cannot be started
   * @throws InterruptedException when interrupted while waiting for it
   */
  public static RedisServer start() throws IOException, InterruptedException {
    return start(List.of());
  }

  /**
   * Starts a server on a port of its own, with more configuration as command-line arguments.
   *
   * @param config more arguments for redis-server, e.g. {@code List.of("--maxmemory", "4mb")};
   *     they must keep the log on standard output at level notice or below, where the server
   *     says it is ready
   * @return the running server, ready for connections
   * @throws IOException when the process cannot be started
   * @throws InterruptedException when interrupted while waiting for it
   * @throws IllegalStateException when the server did not start; the message has its log
   */
  public static RedisServer start(List<String> config) throws IOException, InterruptedException {
    return start(config, () -> ThreadLocalRandom.current().nextInt(LOWEST_PORT, HIGHEST_PORT + 1));
  }

  /** Starts a server on the first of {@code ports} it can bind, trying at most {@link #TRIES}. */
  static RedisServer start(List<String> config, IntSupplier ports)
      throws IOException, InterruptedException {
    return start(plain(List.copyOf(config)), ports);
  }

  /** Starts a server of any shape on a port of its own (see {@link #start(List)}). */
  static RedisServer start(Shape shape) throws IOException, InterruptedException {
    return start(shape, () -> ThreadLocalRandom.current().nextInt(LOWEST_PORT, HIGHEST_PORT + 1));
  }

  private static RedisServer start(Shape shape, IntSupplier ports)
      throws IOException, InterruptedException {
    List<String> taken = new ArrayList<>();
    for (int attempt = 0; attempt < TRIES; attempt++) {
      int port = ports.getAsInt();
      Launch launch = Launch.of(shape, port);
      if (launch.ready()) {
        return new RedisServer(port, shape, launch);
      }
      if (!launch.log().contains(ADDRESS_IN_USE)) {
        throw new IllegalStateException("redis-server did not start on port " + port + ": "
            + launch.log());
      }
      taken.add(Integer.toString(port));
    }
    throw new IllegalStateException("redis-server found every port it tried in use ("
        + String.join(", ", taken) + ")");
  }

  /**
   * Where the server listens.
   *
   * @return {@code redis://127.0.0.1:port}
   */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /**
   * The server's port on 127.0.0.1.
   *
   * @return the port
   */
  public int port() {
    return port;
  }

  /**
   * What the server has logged so far.
   *
   * @return its output, standard error included
   */
  public String log() {
    return launch.log();
  }

  /**
   * Starts the server again on its port, after {@link #kill()}, with nothing kept: a restart
   * loses every key. Fails when another process took the port meanwhile.
   *
   * @throws IOException when the process cannot be started
   * @throws InterruptedException when interrupted while waiting for it
   * @throws IllegalStateException when the server did not start; the message has its log
   */
  public void restart() throws IOException, InterruptedException {
    if (launch.process.isAlive()) {
      throw new IllegalStateException("redis-server on port " + port + " is still running");
    }
    Launch again = Launch.of(shape, port);
    if (!again.ready()) {
      throw new IllegalStateException("redis-server did not start again on port " + port
          + (again.log().contains(ADDRESS_IN_USE) ? ", which was taken since it stopped" : "")
          + ": " + again.log());
    }
    launch = again;
  }

  /**
   * Kills the server at once (no shutdown save) and waits, bounded, until it has exited.
   *
   * @throws InterruptedException when interrupted while waiting
   */
  public void kill() throws InterruptedException {
    launch.process.destroyForcibly();
    if (!launch.process.waitFor(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("redis-server on port " + port + " did not exit when killed");
    }
  }

  /**
   * Stops the server with SIGSTOP: its sockets stay open and nothing answers.
   *
   * @throws IOException when {@code kill} cannot be run
   * @throws InterruptedException when interrupted while waiting for it
   */
  public void pause() throws IOException, InterruptedException {
    signal("-STOP");
  }

  /**
   * Lets a paused server run again (SIGCONT): it answers what it received meanwhile.
   *
   * @throws IOException when {@code kill} cannot be run
   * @throws InterruptedException when interrupted while waiting for it
   */
  public void resume() throws IOException, InterruptedException {
    signal("-CONT");
  }

  /**
   * Runs {@code redis-cli} against this server, as an operator would, and returns its answer.
   *
   * @param args the command and its arguments, e.g. {@code "SET", "key", "value"}
   * @return redis-cli's output, trimmed
   * @throws IOException when redis-cli cannot be run
   * @throws InterruptedException when interrupted while waiting for it
   */
  public String cli(String... args) throws IOException, InterruptedException {
    return cli(port, args);
  }

  /** Kills the server (no shutdown save). */
  @Override
  public void close() throws InterruptedException {
    kill();
  }

  private void signal(String which) throws IOException, InterruptedException {
    long pid = launch.process.pid();
    Process kill = new ProcessBuilder("kill", which, Long.toString(pid)).start();
    if (!kill.waitFor(PATIENCE.toMillis(), TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("kill " + which + " " + pid + " failed");
    }
  }

  /** Runs {@code redis-cli -h 127.0.0.1 -p port args...}, bounded, and returns its output. */
  static String cli(int port, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(executable("redis-cli"), "-h", "127.0.0.1",
        "-p", Integer.toString(port)));
    command.addAll(List.of(args));
    return run(command);
  }

  /** Runs a command to its end, bounded by {@link #PATIENCE}, and returns its output. */
  static String run(List<String> command) throws IOException, InterruptedException {
    Path output = Files.createTempFile("guard-redis-cli", ".out");
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(nullFile()))
          .start();
      if (!process.waitFor(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(command + " did not finish within " + PATIENCE + ": "
            + Files.readString(output));
      }
      String out = Files.readString(output).strip();
      if (process.exitValue() != 0) {
        throw new IllegalStateException(command + " failed (exit " + process.exitValue() + "): "
            + out);
      }
      return out;
    } finally {
      Files.deleteIfExists(output);
    }
  }

  private static File nullFile() {
    return new File("/dev/null");
  }

  /** The path of a Redis executable; fails, never skips, when it is not installed. */
  static String executable(String name) {
    List<String> dirs = new ArrayList<>(
        List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
    dirs.addAll(List.of("/usr/bin", "/usr/local/bin"));
    for (String dir : dirs) {
      File candidate = new File(dir, name);
      if (candidate.canExecute()) {
        return candidate.getPath();
      }
    }
    throw new IllegalStateException(name + " is not installed: guard's tests run against a real "
        + "Redis (install it with 'apt-get install -y " + (name.startsWith("redis") ? "redis-server"
        : name) + "'; .ci/run does this)");
  }

  /**
   * One redis-server process and its output, read on a daemon thread until the process ends (a
   * pipe nobody reads would stop the server once full).
   */
  private static final class Launch {

    final Process process;
    private final StringBuffer log = new StringBuffer();
    private final CompletableFuture<Boolean> ready = new CompletableFuture<>();

    private final String readyLine;

    private Launch(Process process, String readyLine) {
      this.process = process;
      this.readyLine = readyLine;
    }

    static Launch of(Shape shape, int port) throws IOException {
      Path dir = Files.createTempDirectory("guard-redis");
      Process process = new ProcessBuilder(shape.command(port, dir)).redirectErrorStream(true)
          .start();
      Launch launch = new Launch(process, shape.ready());
      Thread reader = new Thread(launch::readOutput, "redis-server-" + port + "-log");
      reader.setDaemon(true);
      reader.start();
      return launch;
    }

    private void readOutput() {
      try (BufferedReader lines = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          log.append(line).append('\n');
          if (line.contains(readyLine)) {
            ready.complete(true);
          }
        }
      } catch (IOException | UncheckedIOException closed) {
        log.append("(output unreadable: ").append(closed).append(")\n");
      } finally {
        ready.complete(false);
      }
    }

    /**
     * Waits, bounded, until the server says it is ready (true) or its output ends (false: it
     * exited, and {@link #log()} says why). A server that says neither is killed.
     */
    boolean ready() throws InterruptedException {
      try {
        if (ready.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
          return true;
        }
        process.waitFor(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        return false;
      } catch (TimeoutException silent) {
        process.destroyForcibly();
        throw new IllegalStateException("waited " + PATIENCE.toSeconds() + " s for redis-server "
            + "to log '" + readyLine + "' or to exit; it did neither: " + log());
      } catch (ExecutionException impossible) {
        throw new IllegalStateException(impossible);
      }
    }

    String log() {
      return log.toString();
    }
  }
}
