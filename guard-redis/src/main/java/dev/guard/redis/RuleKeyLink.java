package dev.guard.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The two Redis connections of a {@link RedisRuleSource}: one for commands (read the key, store a
 * document) and one subscribed to the key's channel. Lettuce's automatic reconnection is off: the
 * source notices a broken link when a command fails, drops both connections and makes new ones at
 * its next look, so that when the server is back the key is read and the channel subscribed again
 * in one step. Not thread-safe: the source calls it under its lock.
 */
final class RuleKeyLink {

  /** What a writer publishes on the key's channel; any message makes subscribers re-read. */
  static final String NOTICE = "changed";

  private final String name;
  private final RedisClient client;
  private final RedisURI uri;
  private final String key;
  private final Runnable onNotice;
  private @Nullable StatefulRedisConnection<String, String> commands;
  private @Nullable StatefulRedisPubSubConnection<String, String> subscription;

  /**
   * Makes the link; it connects at the first call.
   *
   * @param name the source's name, for messages
   */
  RuleKeyLink(String name, String uri, String key, Duration timeout, Runnable onNotice) {
    this.name = name;
    this.uri = RedisURI.create(uri);
    this.uri.setTimeout(timeout);
    this.uri.setClientName("guard-rules");
    this.key = key;
    this.onNotice = onNotice;
    this.client = RedisClient.create();
    client.setOptions(ClientOptions.builder()
        .autoReconnect(false)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .timeoutOptions(TimeoutOptions.enabled(timeout))
        .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
        .build());
  }

  /** Where the server of a URI is, for a source's name: {@code host:port}. */
  static String address(String uri) {
    RedisURI parsed = RedisURI.create(uri);
    return parsed.getHost() + ":" + parsed.getPort();
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
      return connected().sync().get(key);
    } catch (RuntimeException failure) {
      drop();
      throw failure;
    }
  }

  /**
   * Makes sure both connections are up, connecting and subscribing if needed.
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
    StatefulRedisConnection<String, String> open = Objects.requireNonNull(commands, "commands");
    String expectation = expected == null ? "absent" : "present";
    try {
      Long stored = Scripts.run(open.sync(), Scripts.RULES_STORE, ScriptOutputType.INTEGER,
          new String[] {key}, expectation, expected == null ? "" : expected, document, NOTICE);
      return stored != null && stored == 1L;
    } catch (RedisCommandExecutionException refused) {
      throw notStored("Redis refused it (" + refused.getMessage() + ")", refused);
    } catch (RuntimeException noAnswer) {
      drop();
      throw new RedisRuleSource.WriteOutcomeUnknownException("cannot tell whether " + name
          + " stored the rule set: it was sent and no answer came (" + noAnswer.getMessage() + "); Redis may "
          + "still store it, and then every instance applies it", noAnswer);
    }
  }

  private UncheckedIOException notStored(String why, Throwable cause) {
    return new UncheckedIOException(
        new IOException("cannot write " + name + ": " + why + "; nothing was stored", cause));
  }

  private StatefulRedisConnection<String, String> connected() {
    StatefulRedisConnection<String, String> open = commands;
    StatefulRedisPubSubConnection<String, String> listening = subscription;
    if (open != null && open.isOpen() && listening != null && listening.isOpen()) {
      return open;
    }
    drop();
    StatefulRedisConnection<String, String> made = client.connect(StringCodec.UTF8, uri);
    commands = made;
    // a store sent while Redis stalls must be the command Redis runs when it resumes, not an
    // EVALSHA answered NOSCRIPT after the writer gave up waiting
    Scripts.preload(made.sync(), Scripts.RULES_STORE);
    StatefulRedisPubSubConnection<String, String> pubSub =
        client.connectPubSub(StringCodec.UTF8, uri);
    subscription = pubSub;
    pubSub.addListener(new RedisPubSubAdapter<>() {
      @Override
      public void message(String channel, String message) {
        onNotice.run();
      }
    });
    pubSub.sync().subscribe(key);
    return made;
  }

  /** Closes both connections, quietly. */
  void drop() {
    StatefulRedisConnection<String, String> open = commands;
    StatefulRedisPubSubConnection<String, String> listening = subscription;
    commands = null;
    subscription = null;
    for (AutoCloseable connection : new AutoCloseable[] {open, listening}) {
      if (connection != null) {
        try {
          connection.close();
        } catch (Exception ignored) {
          // closing a broken connection may fail; it is gone either way
        }
      }
    }
  }

  /** Closes the connections and ends the client's threads. */
  void close() {
    drop();
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }
}
