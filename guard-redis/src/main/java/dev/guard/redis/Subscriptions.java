package dev.guard.redis;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The channels subscribed on a {@link Connector}'s one connection to one server, when that
 * connection can subscribe and still run every command: it is a pub/sub connection and it speaks
 * RESP3 (Redis 6 and later, which Lettuce negotiates with {@code HELLO 3} unless told otherwise).
 * A RESP2 connection runs nothing but (un)subscribe commands once subscribed, and a Redis Cluster
 * pub/sub connection is not the routed command connection, so there a subscriber gets a pub/sub
 * connection of its own ({@link #own}).
 *
 * <p>Users of one channel are counted: the first sends {@code SUBSCRIBE}, the last to leave
 * {@code UNSUBSCRIBE}; each user's listener hears its own channel only. Messages arrive on the
 * client's I/O thread, so a listener must only hand them on. Thread-safe.
 *
 * <p>What else runs on the shared connection must not be mistaken for a message: Lettuce takes a
 * reply of three elements whose first string is {@code message} (four and {@code pmessage}) for a
 * pub/sub message on any pub/sub connection, and a blocking command would hold the notices up.
 * guard's replies never have that shape (its scripts answer numbers, or arrays of two, or of four
 * whose first string is a state of numbers) and it sends no blocking command.
 */
final class Subscriptions {

  /** One user's subscription to one channel. */
  interface Subscription {

    /** Whether it still listens (its connection is open and it was not closed). */
    boolean isOpen();

    /** Ends it, quietly, and never closes a shared connection; idempotent. */
    void close();
  }

  private final StatefulRedisPubSubConnection<String, String> connection;
  private final Map<String, Integer> users = new HashMap<>();

  private Subscriptions(StatefulRedisPubSubConnection<String, String> connection) {
    this.connection = connection;
  }

  /**
   * The subscriptions of a connection that can subscribe while it runs commands, or null when it
   * cannot (not a pub/sub connection, or RESP2 was negotiated).
   */
  static @Nullable Subscriptions on(StatefulConnection<String, String> connection) {
    if (connection instanceof StatefulRedisPubSubConnection<String, String> pubSub
        && connection instanceof StatefulRedisConnectionImpl<?, ?> made
        && made.getConnectionState().getNegotiatedProtocolVersion() == ProtocolVersion.RESP3) {
      return new Subscriptions(pubSub);
    }
    return null;
  }

  /**
   * Subscribes one user to a channel on the shared connection.
   *
   * @param timeout the longest wait for the server to confirm a first subscription
   * @throws RuntimeException if the server did not confirm it (nothing is left subscribed)
   */
  Subscription subscribe(String channel, Runnable onMessage, Duration timeout) {
    Listener listener = new Listener(channel, onMessage);
    Shared subscription = new Shared(channel, listener);
    connection.addListener(listener);
    try {
      RedisFuture<Void> confirmed = null;
      synchronized (this) {
        if (users.merge(channel, 1, Integer::sum) == 1) {
          // sent under the lock: a later user's commands follow it on the connection
          confirmed = connection.async().subscribe(channel);
        }
      }
      if (confirmed != null) {
        Connector.await(confirmed, timeout);
      }
      return subscription;
    } catch (RuntimeException failed) {
      subscription.close();
      throw failed;
    }
  }

  /**
   * Subscribes on a pub/sub connection of the subscriber's own, which closing the subscription
   * closes.
   *
   * @throws RuntimeException if the server did not confirm it (the connection is closed)
   */
  static Subscription own(StatefulRedisPubSubConnection<String, String> connection,
      String channel, Runnable onMessage, Duration timeout) {
    Subscription subscription = new Subscription() {
      @Override
      public boolean isOpen() {
        return connection.isOpen();
      }

      @Override
      public void close() {
        try {
          connection.close();
        } catch (RuntimeException ignored) {
          // closing a broken connection may fail; it is gone either way
        }
      }
    };
    try {
      connection.addListener(new Listener(channel, onMessage));
      Connector.await(connection.async().subscribe(channel), timeout);
      return subscription;
    } catch (RuntimeException failed) {
      subscription.close();
      throw failed;
    }
  }

  /** The last user of a channel unsubscribes it, without waiting for the answer. */
  @SuppressWarnings("FutureReturnValueIgnored") // a lost connection holds no subscription anyway
  private void leave(String channel, Listener listener) {
    connection.removeListener(listener);
    synchronized (this) {
      Integer left = users.computeIfPresent(channel, (name, count) -> count == 1 ? null : count - 1);
      if (left != null) {
        return;
      }
      try {
        connection.async().unsubscribe(channel);
      } catch (RuntimeException lost) {
        // a lost connection holds no subscription any more
      }
    }
  }

  /** A subscription on the shared connection. */
  private final class Shared implements Subscription {
    private final String channel;
    private final Listener listener;
    private boolean closed;

    Shared(String channel, Listener listener) {
      this.channel = channel;
      this.listener = listener;
    }

    @Override
    public synchronized boolean isOpen() {
      return !closed && connection.isOpen();
    }

    @Override
    public void close() {
      synchronized (this) {
        if (closed) {
          return;
        }
        closed = true;
      }
      leave(channel, listener);
    }
  }

  /** Hears one channel's messages. */
  private static final class Listener extends RedisPubSubAdapter<String, String> {
    private final String channel;
    private final Runnable onMessage;

    Listener(String channel, Runnable onMessage) {
      this.channel = channel;
      this.onMessage = onMessage;
    }

    @Override
    public void message(String from, String message) {
      if (channel.equals(from)) {
        onMessage.run();
      }
    }
  }
}
