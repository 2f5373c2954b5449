package dev.guard.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link RedisRuleSource} uses of Redis: the connection of its {@link RedisConnection}
 * (read the key, store a document), shared with the instance's other Redis users or its own, and a
 * subscription to the key's channel: on that same connection where it speaks RESP3, else on a
 * pub/sub connection of its own on the same client ({@link Connector#subscribe}). A failed command
 * drops the subscription (and the store script's load): it unsubscribes, or closes the source's
 * own pub/sub connection, and never closes the shared one. The next look waits for the connection
 * (made again after a loss, at once when the source asks), loads the script and subscribes again,
 * so that when the server is back the key is read and the channel subscribed again in one step.
 * Not thread-safe: the source calls it under its lock.
 */
final class RuleKeyLink {

  /** What a writer publishes on the key's channel; any message makes subscribers re-read. */
  static final String NOTICE = "changed";

  /** The longest a first attempt may take to make the client, beyond the connect timeout. */
  private static final Duration CLIENT_SETUP = Duration.ofSeconds(10);

  private final String name;
  private final Connector connector;
  private final boolean ownsConnection;
  private final String key;
  private final Duration timeout;
  private final Runnable onNotice;
  private Connector.@Nullable Link commands;
  private Subscriptions.@Nullable Subscription subscription;

  /**
   * Makes the link; it connects at the first call.
   *
   * @param name the source's name, for messages
   * @param connection the connection to use
   * @param ownsConnection whether {@link #close()} closes the connection
   * @param timeout the bound of each command and of waiting for the connection
   */
  RuleKeyLink(String name, RedisConnection connection, boolean ownsConnection, String key,
      Duration timeout, Runnable onNotice) {
    this.name = name;
    this.connector = connection.connector();
    this.ownsConnection = ownsConnection;
    this.key = key;
    this.timeout = timeout;
    this.onNotice = onNotice;
  }

  /**
   * Reads the key, connecting and subscribing first if the link is down.
   *
   * @return the document, or null if the key does not exist
   * @throws RuntimeException if Redis could not be reached or answered with an error (the link is
   *     dropped, to be made again at the next call)
   */
  @Nullable String read() {
    try {
      return Connector.await(connected().commands().get(key), timeout);
    } catch (RuntimeException failure) {
      drop();
      throw failure;
    }
  }

  /**
   * Makes sure the connection and the subscription are up, connecting and subscribing if needed.
   *
   * @throws UncheckedIOException if Redis could not be reached
   */
  void reach() {
    try {
      connected();
    } catch (RuntimeException unreachable) {
      drop();
      throw notStored("Redis could not be reached (" + unreachable.getMessage() + ")", unreachable);
    }
  }

  /**
   * Stores a document and publishes the notice, if the key holds what was expected.
   *
   * @param expected what the key must hold: {@code null} for absent
   * @param document the new document
   * @return whether it was stored
   * @throws UncheckedIOException if nothing was stored: Redis could not be reached, or it answered
   *     with an error (the script stops before it stores)
   * @throws RedisRuleSource.WriteOutcomeUnknownException if the script was sent and no answer came
   *     (a timeout, a lost connection): Redis may still store the document
   */
  boolean store(@Nullable String expected, String document) {
    reach();
    Connector.Link open = Objects.requireNonNull(commands, "commands");
    String expectation = expected == null ? "absent" : "present";
    try {
      Long stored = Scripts.run(open.commands(), timeout, Scripts.RULES_STORE,
          ScriptOutputType.INTEGER, new String[] {key}, expectation,
          expected == null ? "" : expected, document, NOTICE);
      return stored != null && stored == 1L;
    } catch (RedisCommandExecutionException refused) {
      throw notStored("Redis refused it (" + refused.getMessage() + ")", refused);
    } catch (RuntimeException noAnswer) {
      drop();
      throw new RedisRuleSource.WriteOutcomeUnknownException("cannot tell whether " + name
          + " stored the rule set: it was sent and no answer came (" + noAnswer.getMessage()
          + "); Redis may still store it, and then every instance applies it", noAnswer);
    }
  }

  private UncheckedIOException notStored(String why, Throwable cause) {
    return new UncheckedIOException(
        new IOException("cannot write " + name + ": " + why + "; nothing was stored", cause));
  }

  private Connector.Link connected() {
    Connector.Link open = commands;
    Subscriptions.Subscription listening = subscription;
    if (open != null && open.connection().isOpen() && listening != null && listening.isOpen()) {
      return open;
    }
    drop();
    // an attempt ends within the connect timeout once the client exists; the first one also
    // makes the client (Netty's start, up to seconds on a busy machine), which is no outage
    if (!connector.awaitConnected(timeout.plus(CLIENT_SETUP))) {
      throw new IllegalStateException("not connected to " + connector.servers() + " within "
          + timeout);
    }
    Connector.Link made = connector.link();
    if (made == null) {
      throw new IllegalStateException("not connected to " + connector.servers());
    }
    // a store sent while Redis stalls must be the command Redis runs when it resumes, not an
    // EVALSHA answered NOSCRIPT after the writer gave up waiting
    Scripts.preload(made.commands(), timeout, Scripts.RULES_STORE);
    subscription = connector.subscribe(made, key, onNotice, timeout);
    commands = made;
    return made;
  }

  /** Ends the subscription, quietly; the connection is the connector's. */
  void drop() {
    Subscriptions.Subscription listening = subscription;
    commands = null;
    subscription = null;
    if (listening != null) {
      listening.close();
    }
  }

  /** Closes the subscription, and the connection if it is the source's own. */
  void close() {
    drop();
    if (ownsConnection) {
      connector.close();
    }
  }
}
