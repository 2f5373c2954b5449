package dev.guard.engine;

import dev.guard.api.internal.Threads;
import dev.guard.api.PeriodStats;
import dev.guard.api.internal.Checks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Writes an engine's metrics history to rolling text files: one line per resource and recorded
 * second, in a format that tools can parse (docs/BEHAVIOUR.md, "Metrics log files"). Nothing is
 * written unless the application opens a log.
 *
 * <pre>{@code
 * MetricsLog log = MetricsLog.builder(engine, Path.of("/var/log/shop"))
 *     .maxFileBytes(20_000_000)
 *     .maxFiles(5)
 *     .start();                       // writes every second on a daemon thread
 * ...
 * log.close();                        // writes what is left, stops the thread, closes the file
 * }</pre>
 *
 * <p>A line is {@code wallMillis|wallTime|resource|pass|refused|flow|perValue|circuitBreaker|
 * system|origin|success|exception|rtSumMs|minRtMs|concurrency|adaptive|adaptiveLimit}, for example
 * {@code 1796126403000|2026-12-01T12:00:03Z|checkout|100|31|29|0|0|0|2|98|1|1204|3|4|0|-1}
 * ({@code adaptiveLimit} is -1 for a resource without an adaptive concurrency rule). Each file starts
 * with one {@code #} line naming the columns. The current file is {@code <name>.log}; when the
 * next line would make it larger than {@link Builder#maxFileBytes}, it becomes {@code
 * <name>.log.1} (older ones move up by one) and the oldest beyond {@link Builder#maxFiles} is
 * deleted, so the files never hold more than {@code maxFiles × maxFileBytes} bytes.
 *
 * <p>Reading the history records the seconds that have closed, so a started log also records an
 * engine on a manual clock as its time advances. Writing
 * errors are not thrown from the background thread: the log retries on the next pass and keeps
 * the last error ({@link #lastError()}).
 */
public final class MetricsLog implements AutoCloseable {

  /** The first line of every file: the column names. */
  public static final String HEADER = "# wallMillis|wallTime|resource|pass|refused|flow|perValue"
      + "|circuitBreaker|system|origin|success|exception|rtSumMs|minRtMs|concurrency|adaptive"
      + "|adaptiveLimit";

  private static final int HEADER_BYTES = HEADER.length() + 1;

  private final GuardEngine engine;
  private final Path file;
  private final long maxFileBytes;
  private final int maxFiles;
  private final long intervalNanos;
  private final Map<String, Long> written = new HashMap<>();
  private final long openedAtMs;
  private @Nullable Writer out;
  private long size;
  private @Nullable IOException lastError;
  private @Nullable Thread thread;
  private volatile boolean closed;

  private MetricsLog(Builder builder) {
    this.engine = builder.engine;
    this.file = builder.directory.resolve(builder.name + ".log");
    this.maxFileBytes = builder.maxFileBytes;
    this.maxFiles = builder.maxFiles;
    this.intervalNanos = builder.interval.toNanos();
    this.openedAtMs = engine.timeMs() - engine.timeMs() % 1000L;
  }

  /**
   * Starts describing a log of {@code engine}'s history in {@code directory}.
   *
   * @param engine the engine whose history is written
   * @param directory where the files go; created when missing
   * @return a builder
   */
  public static Builder builder(GuardEngine engine, Path directory) {
    return new Builder(Objects.requireNonNull(engine, "engine"),
        Objects.requireNonNull(directory, "directory"));
  }

  /**
   * Writes every second recorded since the previous pass (recording the seconds that closed
   * first), oldest first, resources in name order within a second. {@link Builder#start()} runs this
   * once per interval; call it yourself to drive a log opened with {@link Builder#open()}.
   *
   * @return the number of lines written
   * @throws UncheckedIOException if the file could not be written (the lines are written again on
   *     the next pass)
   * @throws IllegalStateException if the log is closed
   */
  public synchronized int writeRecorded() {
    if (closed) {
      throw new IllegalStateException("metrics log " + file + " is closed");
    }
    return pass();
  }

  private int pass() {
    long nowMs = engine.timeMs();
    Instant wallNow = engine.wallTime();
    List<Line> lines = new ArrayList<>();
    for (String resource : engine.resources()) {
      long after = written.getOrDefault(resource, openedAtMs - 1000L);
      for (PeriodStats second : engine.metricsHistory(resource, after + 1000L, Long.MAX_VALUE)) {
        lines.add(new Line(resource, second));
      }
    }
    lines.sort(Comparator.comparingLong((Line line) -> line.second.fromMs())
        .thenComparing(line -> line.resource));
    try {
      for (Line line : lines) {
        long wallMillis = wallNow.toEpochMilli() - (nowMs - line.second.fromMs());
        write(format(wallMillis, line.resource, line.second));
        written.put(line.resource, line.second.fromMs());
      }
      if (out != null) {
        out.flush();
      }
      lastError = null;
      return lines.size();
    } catch (IOException e) {
      lastError = e;
      closeFile();
      throw new UncheckedIOException("cannot write metrics log " + file, e);
    }
  }

  private void write(String line) throws IOException {
    byte[] bytes = (line + '\n').getBytes(StandardCharsets.UTF_8);
    if (out == null) {
      openFile();
    }
    if (size > HEADER_BYTES && size + bytes.length > maxFileBytes) {
      closeFile();
      roll();
      openFile();
    }
    Writer current = Objects.requireNonNull(out);
    current.write(line);
    current.write('\n');
    size += bytes.length;
  }

  private void openFile() throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Writer opened = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    out = opened;
    size = Files.size(file);
    if (size == 0) {
      opened.write(HEADER + '\n');
      size = HEADER_BYTES;
    }
  }

  /** {@code name.log.(k-1)} becomes {@code name.log.k}; the oldest beyond maxFiles goes. */
  private void roll() throws IOException {
    Files.deleteIfExists(rolled(maxFiles - 1));
    for (int k = maxFiles - 2; k >= 1; k--) {
      if (Files.exists(rolled(k))) {
        Files.move(rolled(k), rolled(k + 1), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    if (maxFiles > 1) {
      Files.move(file, rolled(1), StandardCopyOption.REPLACE_EXISTING);
    } else {
      Files.delete(file);
    }
  }

  private Path rolled(int k) {
    return file.resolveSibling(file.getFileName() + "." + k);
  }

  /**
   * Formats one line (without the line end): the documented columns, the resource name with
   * {@code %}, {@code |} and line breaks percent-encoded so that every line splits into the same
   * fields.
   *
   * @param wallMillis the second's start as wall-clock milliseconds since the epoch
   * @param resource the resource name
   * @param second what it did
   * @return the line
   */
  static String format(long wallMillis, String resource, PeriodStats second) {
    StringBuilder line = new StringBuilder(96).append(wallMillis).append('|')
        .append(Instant.ofEpochMilli(wallMillis)).append('|');
    for (int i = 0; i < resource.length(); i++) {
      char c = resource.charAt(i);
      switch (c) {
        case '%' -> line.append("%25");
        case '|' -> line.append("%7C");
        case '\n' -> line.append("%0A");
        case '\r' -> line.append("%0D");
        default -> line.append(c);
      }
    }
    long[] columns = {second.pass(), second.refused(), second.flowRefused(), second.perValueRefused(),
        second.circuitBreakerRefused(), second.systemRefused(), second.originRefused(), second.success(),
        second.exception(), second.rtSumMs(), second.minRtMs(), second.concurrency(),
        second.adaptiveRefused(), second.adaptiveLimit()};
    for (long column : columns) {
      line.append('|').append(column);
    }
    return line.toString();
  }

  /**
   * Returns the error of the last pass that failed, until a pass succeeds.
   *
   * @return the error, or null
   */
  public synchronized @Nullable IOException lastError() {
    return lastError;
  }

  /**
   * Returns the file being written now.
   *
   * @return {@code <directory>/<name>.log}
   */
  public Path file() {
    return file;
  }

  /**
   * Writes what was recorded since the last pass, stops the background thread and closes the
   * file. Closing twice does nothing.
   */
  @Override
  public void close() {
    Thread running;
    synchronized (this) {
      if (closed) {
        return;
      }
      try {
        pass();
      } catch (UncheckedIOException ignored) {
        // kept in lastError; closing goes on
      }
      closed = true;
      closeFile();
      running = thread;
    }
    if (running != null) {
      running.interrupt(); // ends its wait; it sees the log closed and writes nothing more
    }
  }

  private void closeFile() {
    Writer current = out;
    out = null;
    if (current != null) {
      try {
        current.close();
      } catch (IOException e) {
        lastError = e;
      }
    }
  }

  private void startThread() {
    Thread t = Threads.make(engine.threads(), "guard-metrics-log", this::run);
    thread = t;
    t.start();
  }

  private void run() {
    while (!closed) {
      try {
        GuardEngine.systemTime().backgroundSleep(intervalNanos);
      } catch (InterruptedException stop) {
        return;
      }
      synchronized (this) {
        if (closed) {
          return;
        }
        try {
          pass();
        } catch (UncheckedIOException | IllegalStateException ignored) {
          // kept in lastError; the next pass tries again
        }
      }
    }
  }

  private record Line(String resource, PeriodStats second) {}

  /** Describes a {@link MetricsLog}; every option has a default. */
  public static final class Builder {
    private final GuardEngine engine;
    private final Path directory;
    private String name = "guard-metrics";
    private long maxFileBytes = 50L * 1024 * 1024;
    private int maxFiles = 6;
    private Duration interval = Duration.ofSeconds(1);

    private Builder(GuardEngine engine, Path directory) {
      this.engine = engine;
      this.directory = directory;
    }

    /**
     * Sets the file name without {@code .log} (default {@code guard-metrics}).
     *
     * @param name a plain file name
     * @return this builder
     * @throws IllegalArgumentException if blank or containing a path separator
     */
    public Builder name(String name) {
      Checks.notBlank("name", name);
      if (name.contains("/") || name.contains("\\")) {
        throw Checks.invalid("name", name, "must be a plain file name");
      }
      this.name = name;
      return this;
    }

    /**
     * Sets the largest size of one file (default 50 MiB).
     *
     * @param bytes at least 1024
     * @return this builder
     * @throws IllegalArgumentException if smaller
     */
    public Builder maxFileBytes(long bytes) {
      if (bytes < 1024) {
        throw Checks.invalid("maxFileBytes", bytes, "must be >= 1024");
      }
      this.maxFileBytes = bytes;
      return this;
    }

    /**
     * Sets how many files are kept, the current one included (default 6).
     *
     * @param files from 1 to 1000
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public Builder maxFiles(int files) {
      if (files < 1 || files > 1000) {
        throw Checks.invalid("maxFiles", files, "must be in [1, 1000]");
      }
      this.maxFiles = files;
      return this;
    }

    /**
     * Sets how often the background thread writes (default every second; real time, whatever
     * the engine's time source).
     *
     * @param interval from 100 ms to 30 s, so that no second leaves the engine's minute window
     *     unrecorded
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public Builder interval(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      if (interval.toMillis() < 100 || interval.compareTo(Duration.ofSeconds(30)) > 0) {
        throw Checks.invalid("interval", interval, "must be from 100 ms to 30 s");
      }
      this.interval = interval;
      return this;
    }

    /**
     * Opens the log without a thread: lines are written by {@link MetricsLog#writeRecorded()}.
     * Seconds recorded before this are not written.
     *
     * @return the log
     */
    public MetricsLog open() {
      return new MetricsLog(this);
    }

    /**
     * Opens the log and starts a daemon thread that writes every {@link #interval}.
     *
     * @return the log
     */
    public MetricsLog start() {
      MetricsLog log = open();
      log.startThread();
      return log;
    }
  }
}
