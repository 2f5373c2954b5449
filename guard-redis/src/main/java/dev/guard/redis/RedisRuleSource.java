package dev.guard.redis;

import dev.guard.api.internal.Threads;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.RulePart;
import dev.guard.spi.TimeSource;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.spi.RuleSource;
import dev.guard.rules.PollingRuleSource;
import dev.guard.rules.RuleFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Rules kept in one Redis key, in the JSON rule format (docs/RULES.md), and pushed to every
 * instance attached to that key: an operator's tool writes the set once and all instances apply
 * it.
 *
 * <pre>{@code
 * RedisRuleSource rules = RedisRuleSource.of("redis://redis:6379", "shop:guard-rules");
 * engine.attach(rules, RulePart.all());                  // applies what the key holds now
 * rules.write(RuleSet.of(List.of(FlowRule.qps("checkout", 1000)
 *     .withCluster(ClusterMode.global("checkout")))));   // every instance applies it
 * ...
 * rules.close();
 * }</pre>
 *
 * <p>How it stays current (docs/BEHAVIOUR.md, "The Redis rule source"): a writer stores the
 * document and publishes a notice on the channel named like the key, in one atomic step; every
 * source subscribed to the channel reads the key again when a notice arrives. The key is the only
 * truth, so instances converge on what it holds whatever order notices arrive in. A notice missed
 * (a dropped connection, a hand edit without {@code PUBLISH}) is caught by a poll every poll
 * interval (default {@value #DEFAULT_POLL_SECONDS} s), waiting on the engine's time source.
 *
 * <p>What the key holds: absent means "no rules from this source yet" and changes nothing; a
 * document that is not a valid rule set changes nothing and the engine's listeners hear the
 * errors once per document. Redis unreachable: nothing is thrown to the application, the rules in
 * force stay, the listeners hear it once per outage, and the source connects again at each poll;
 * once it is back it reads the key. Thread-safe.
 */
public final class RedisRuleSource extends PollingRuleSource implements RuleSource.Writable {

  /** The default poll interval in seconds. */
  public static final long DEFAULT_POLL_SECONDS = 5;

  private final RuleKeyLink link;
  private final ExecutorService notices;
  /** What the key held at the last successful read or store; valid when {@link #seenKnown}. */
  private @Nullable String seen;
  private boolean seenKnown;
  /** The document last applied (or refused by the engine); null when none or after an absence. */
  private @Nullable String applied;
  /** The document that last failed to parse, reported once. */
  private @Nullable String failing;
  private boolean outageReported;

  private RedisRuleSource(Builder b) {
    this(b, b.connection != null ? b.connection
        : RedisConnection.own(List.of(Objects.requireNonNull(b.uri, "uri")), false,
            b.connectTimeout, b.connectTimeout, Duration.ZERO, GuardEngine.systemTime(),
            "guard-rules"));
  }

  private RedisRuleSource(Builder b, RedisConnection connection) {
    super("redis:" + b.key + "@" + connection.connector().servers(), b.pollInterval);
    this.link = new RuleKeyLink(name(), connection, b.connection == null, b.key,
        b.connectTimeout, this::noticed);
    // the thread is made at the first notice (on the client's I/O thread, which must not wait
    // for the source's monitor: a writer holding it waits for that thread's answer)
    this.notices = Executors.newSingleThreadExecutor(
        task -> Threads.make(threads(), "guard-redis-rules notices " + b.key, task));
  }

  /**
   * Creates a source for a key with the default settings; it connects when attached.
   *
   * @param uri the server, e.g. {@code redis://localhost:6379}
   * @param key the key holding the rules document; its channel has the same name
   * @return the source, not yet started
   */
  public static RedisRuleSource of(String uri, String key) {
    return builder(uri, key).build();
  }

  /**
   * Starts configuring a source.
   *
   * @param uri the server, e.g. {@code redis://localhost:6379}
   * @param key the key holding the rules document; not blank
   * @return a builder
   * @throws IllegalArgumentException if the key is blank
   */
  public static Builder builder(String uri, String key) {
    return new Builder(Objects.requireNonNull(uri, "uri"), null, key);
  }

  /**
   * Creates a source for a key on a connection it shares with the instance's other Redis users,
   * with the default settings; it subscribes when attached (on the shared connection itself where
   * it speaks RESP3, else on a pub/sub connection of its own on the same client), and when it stops
   * it unsubscribes and leaves the shared connection open.
   *
   * <pre>{@code
   * RedisConnection redis = RedisConnection.of("redis://redis:6379");
   * engine.attach(RedisRuleSource.of(redis, "shop:guard-rules"), RulePart.all());
   * }</pre>
   *
   * @param connection the shared connection
   * @param key the key holding the rules document; its channel has the same name
   * @return the source, not yet started
   */
  public static RedisRuleSource of(RedisConnection connection, String key) {
    return builder(connection, key).build();
  }

  /**
   * Starts configuring a source on a shared connection.
   *
   * @param connection the shared connection
   * @param key the key holding the rules document; not blank
   * @return a builder
   * @throws IllegalArgumentException if the key is blank
   */
  public static Builder builder(RedisConnection connection, String key) {
    return new Builder(null, Objects.requireNonNull(connection, "connection"), key);
  }

  /** Called on Lettuce's thread when a notice arrives: the key is read on the source's own. */
  private void noticed() {
    try {
      notices.execute(() -> {
        synchronized (this) {
          if (!closed() && sink() != null) {
            look(false);
          }
        }
      });
    } catch (RejectedExecutionException closing) {
      // the source is closing
    }
  }

  /**
   * Reads the key once and applies what changed; the lock is held.
   *
   * @param first whether the source is being attached
   */
  @Override
  protected void look(boolean first) {
    String document;
    try {
      document = link.read();
    } catch (RuntimeException unreachable) {
      seenKnown = false;
      if (!outageReported && !closed()) { // a read cut short by close() is no outage
        outageReported = true;
        report(List.of(new InvalidRulesException.Error(name(), "could not be read (" + unreachable.getMessage()
            + "); the rules in force stay")));
      }
      return;
    }
    outageReported = false;
    seen = document;
    seenKnown = true;
    if (sink() == null) {
      return; // a writer that is not attached only needs to know what the key holds
    }
    if (document == null) {
      applied = null;
      failing = null;
      return;
    }
    if (document.equals(applied)) {
      failing = null;
      return;
    }
    RuleSet rules;
    try {
      rules = RuleFormat.parse(document, part());
    } catch (InvalidRulesException invalid) {
      if (!document.equals(failing)) {
        failing = document;
        report(invalid.errors());
      }
      return;
    }
    failing = null;
    applied = document;
    apply(rules); // a set the engine refuses changes nothing until the key changes again
  }

  /**
   * Applies a rule set to the attached engine, then stores it in the key and notifies every
   * instance, if the key still holds what this source last read from it (optimistic
   * concurrency). Without an engine attached it is only stored. A set whose document would not
   * read back ({@link RuleFormat#write}: longer than {@link RuleFormat#MAX_DOCUMENT_CHARS}
   * characters written) is refused before Redis is asked or anything is applied, so the key
   * never holds a document an engine cannot read.
   *
   * @throws InvalidRulesException if the set's document would not read back, or the engine
   *     refused the set (nothing was stored either way)
   * @throws ConcurrentModificationException if another writer changed the key since this source
   *     last read it: nothing was stored, and the attached engine now has what the key holds
   *     (read {@link dev.guard.engine.GuardEngine#ruleSet()} again and retry)
   * @throws UncheckedIOException if nothing was stored: Redis could not be reached (checked
   *     before the set is applied: nothing changed), or it failed or refused the store after the
   *     set was applied (the engine goes back to the document it last applied from the key, or,
   *     if none, keeps the new set until the next successful read)
   * @throws WriteOutcomeUnknownException if the set was sent to Redis and no answer came
   *     within the connect timeout, so it may or may not be stored (the engine keeps the new set
   *     until the next successful read applies what the key holds)
   * @throws IllegalArgumentException if a rule is of a kind the format does not know
   * @throws IllegalStateException if the source is closed
   */
  @Override
  public synchronized void write(RuleSet rules) {
    Objects.requireNonNull(rules, "rules");
    if (closed()) {
      throw new IllegalStateException(name() + " is closed");
    }
    String document = RuleFormat.write(rules);
    if (!seenKnown) {
      look(false); // learn what the key holds, so that the store can tell another writer's change
    }
    if (!seenKnown) {
      throw new UncheckedIOException(new IOException(
          "cannot write " + name() + ": Redis could not be reached; nothing was applied or stored"));
    }
    link.reach(); // nothing is applied while Redis cannot be reached
    RuleSource.Sink sink = sink();
    if (sink != null) {
      sink.apply(rules);
    }
    boolean stored;
    try {
      stored = link.store(seen, document);
    } catch (UncheckedIOException notStored) {
      seenKnown = false;
      restore(sink);
      throw notStored;
    } catch (WriteOutcomeUnknownException unknown) {
      applied = null; // the next successful read applies what the key holds
      seenKnown = false;
      throw unknown;
    }
    if (!stored) {
      applied = null;
      look(false); // the engine takes what the key holds now
      throw new ConcurrentModificationException(name() + " was changed by another writer since "
          + "this source last read it; nothing was stored");
    }
    seen = document;
    seenKnown = true;
    applied = sink == null ? null : document; // an engine attached later still applies it
    failing = null;
  }

  /** After a store that did not happen: the engine takes the document last applied again. */
  private void restore(RuleSource.@Nullable Sink sink) {
    String previous = applied;
    applied = null;
    if (sink == null || previous == null) {
      return; // the next successful read applies what the key holds
    }
    try {
      sink.apply(RuleFormat.parse(previous, sink.part()));
      applied = previous;
    } catch (InvalidRulesException refused) {
      // the engine heard why; the next successful read tries again
    }
  }

  /** Ends the notice thread and closes the connections, once polling stopped. */
  @Override
  protected void release() throws InterruptedException {
    notices.shutdownNow();
    try {
      notices.awaitTermination(10, TimeUnit.SECONDS);
    } finally {
      synchronized (this) {
        link.close();
      }
    }
  }

  /** Settings of a {@link RedisRuleSource}. */
  public static final class Builder {
    private final @Nullable String uri;
    private final @Nullable RedisConnection connection;
    private final String key;
    private Duration pollInterval = Duration.ofSeconds(DEFAULT_POLL_SECONDS);
    private Duration connectTimeout = Duration.ofSeconds(1);

    private Builder(@Nullable String uri, @Nullable RedisConnection connection, String key) {
      this.uri = uri;
      this.connection = connection;
      Objects.requireNonNull(key, "key");
      if (key.isBlank()) {
        throw new IllegalArgumentException("key must not be blank, was '" + key + "'");
      }
      this.key = key;
    }

    /**
     * Sets how often the key is read when no notice arrives (default {@value
     * #DEFAULT_POLL_SECONDS} s), on the attached engine's time source.
     *
     * @param interval positive
     * @return this builder
     * @throws IllegalArgumentException if not positive
     */
    public Builder pollInterval(Duration interval) {
      this.pollInterval = positive("pollInterval", interval);
      return this;
    }

    /**
     * Sets how long connecting (or waiting for a shared connection), and each command, may take
     * before the attempt counts as failed (default 1 s).
     *
     * @param timeout positive
     * @return this builder
     * @throws IllegalArgumentException if not positive
     */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive("connectTimeout", timeout);
      return this;
    }

    /**
     * Creates the source; it connects when attached (or at the first write).
     *
     * @return the source
     */
    public RedisRuleSource build() {
      return new RedisRuleSource(this);
    }

    private static Duration positive(String field, Duration value) {
      Objects.requireNonNull(value, field);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(field + " must be positive, was " + value);
      }
      return value;
    }
  }

  /**
   * A {@link RedisRuleSource#write} sent the rule set to Redis but got no answer (the server stopped
   * answering, or the connection was lost while it waited), so it cannot tell whether the set was
   * stored: Redis may still run the write when it answers again, and then every attached instance
   * applies the set. Distinct from {@link java.io.UncheckedIOException}, which {@code write} throws
   * only when nothing was stored.
   *
   * <p>What follows: the writer's engine keeps the new set until the source's next successful read
   * (a notice or a poll) applies what the key holds then, the same as every other instance. Writing
   * the same set again is safe: the retry compares with what the key holds at that time, and if the
   * first write was stored it simply stores the same document again.
   *
   * <pre>{@code
   * try {
   *   rules.write(update);
   * } catch (RedisRuleSource.WriteOutcomeUnknownException unknown) {
   *   rules.write(update);          // safe to repeat once Redis answers again
   * }
   * }</pre>
   */
  public static final class WriteOutcomeUnknownException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was written where, and why the outcome is unknown
     * @param cause the client's error (a timeout or a lost connection)
     */
    public WriteOutcomeUnknownException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
