package dev.guard.redis;

import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a {@link Connector} connects: uris read from text, guard's own copies of them, and how
 * they are named in messages and logs, never with their credentials.
 *
 * <p>A uri text is one server ({@code redis://}, {@code rediss://} for TLS), one Redis Sentinel
 * group ({@code redis-sentinel://host:port[,host:port...]#master}, whose commas separate the
 * sentinels of that one group), or, for a cluster, seed nodes separated by commas.
 */
final class Servers {

  /** The user information of a uri text ({@code //user:password@}). */
  private static final Pattern USER_INFO = Pattern.compile("//[^/@]*@");

  private Servers() {}

  /**
   * The uris of a uri text: one per comma-separated part, or the whole text for a Sentinel uri.
   *
   * @throws IllegalArgumentException if a part is blank
   */
  static List<String> split(String uri) {
    Objects.requireNonNull(uri, "uri");
    if (sentinel(uri)) {
      return List.of(uri.strip());
    }
    List<String> servers = new ArrayList<>();
    for (String part : uri.split(",")) {
      if (part.isBlank()) {
        throw new IllegalArgumentException("uri must list servers separated by commas, was '"
            + redact(uri) + "'");
      }
      servers.add(part.strip());
    }
    return servers;
  }

  private static boolean sentinel(String uri) {
    String scheme = uri.strip().toLowerCase(java.util.Locale.ROOT);
    return scheme.startsWith(RedisURI.URI_SCHEME_REDIS_SENTINEL + ":")
        || scheme.startsWith(RedisURI.URI_SCHEME_REDIS_SENTINEL_SECURE + ":");
  }

  /**
   * Parses uri texts.
   *
   * @throws IllegalArgumentException naming the uri (without credentials) if one is not a Redis
   *     uri
   */
  static List<RedisURI> parse(List<String> uris) {
    List<RedisURI> parsed = new ArrayList<>();
    for (String uri : uris) {
      try {
        parsed.add(RedisURI.create(uri));
      } catch (RuntimeException invalid) {
        throw new IllegalArgumentException("uri must be a Redis uri (redis://, rediss:// or "
            + "redis-sentinel://host:port#master), was '" + redact(uri) + "': "
            + invalid.getMessage(), invalid);
      }
    }
    return parsed;
  }

  /**
   * guard's own copy of a uri, so that setting its timeout and client name leaves the caller's
   * as it was.
   */
  static RedisURI copy(RedisURI source, Duration timeout, String clientName) {
    RedisURI copy = copy(source);
    copy.setTimeout(timeout); // bounds the handshake, the sentinel query and topology discovery
    copy.setClientName(clientName);
    return copy;
  }

  private static RedisURI copy(RedisURI source) {
    RedisURI copy = new RedisURI();
    if (source.getHost() != null) {
      copy.setHost(source.getHost());
    }
    copy.setPort(source.getPort());
    if (source.getSocket() != null) {
      copy.setSocket(source.getSocket());
    }
    if (source.getSentinelMasterId() != null) {
      copy.setSentinelMasterId(source.getSentinelMasterId());
    }
    for (RedisURI sentinel : source.getSentinels()) {
      copy.getSentinels().add(copy(sentinel));
    }
    copy.setDatabase(source.getDatabase());
    copy.setCredentialsProvider(source.getCredentialsProvider());
    copy.applySsl(source);
    copy.setTimeout(source.getTimeout());
    if (source.getClientName() != null) {
      copy.setClientName(source.getClientName());
    }
    return copy;
  }

  /**
   * The servers as {@code host:port}, comma-separated, each marked {@code (TLS)} when it is
   * reached over TLS; a Sentinel group by its master's name and its sentinels.
   */
  static String describe(List<RedisURI> uris) {
    StringBuilder out = new StringBuilder();
    for (RedisURI uri : uris) {
      out.append(out.length() == 0 ? "" : ",");
      if (uri.getSentinelMasterId() != null && !uri.getSentinels().isEmpty()) {
        out.append("master '").append(uri.getSentinelMasterId()).append("' of sentinels ");
        List<RedisURI> sentinels = uri.getSentinels();
        for (int i = 0; i < sentinels.size(); i++) {
          out.append(i == 0 ? "" : ",").append(address(sentinels.get(i)));
        }
      } else {
        out.append(address(uri));
      }
      if (uri.isSsl()) {
        out.append(" (TLS)");
      }
    }
    return out.toString();
  }

  private static String address(RedisURI uri) {
    return uri.getSocket() != null ? uri.getSocket() : uri.getHost() + ":" + uri.getPort();
  }

  /** A uri text with its user information (user name, password) masked, for a message. */
  static String redact(String uri) {
    return USER_INFO.matcher(uri).replaceAll("//***@");
  }
}
