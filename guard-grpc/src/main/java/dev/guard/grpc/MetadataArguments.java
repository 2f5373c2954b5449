package dev.guard.grpc;

import io.grpc.Metadata;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A call's arguments taken from its metadata (the settings' {@code argumentKeys}), by the rule
 * guard-http applies to header values: each key's first value, trimmed; the empty string when the
 * key is absent, so that leaving it out does not escape a per-value limit; a value longer than
 * {@value #MAX_LENGTH} characters replaced by {@code "sha256:"} and its SHA-256 digest in hex, so
 * that remembered values stay small whatever a client sends.
 */
final class MetadataArguments implements Function<Metadata, @Nullable Object[]> {

  /** The longest value kept as it is; a longer one is replaced by its digest. */
  static final int MAX_LENGTH = 128;

  private static final @Nullable Object[] NO_ARGUMENTS = new Object[0];

  /** The arguments of a call when none are configured: none (one shared empty array). */
  static final Function<Metadata, @Nullable Object[]> NONE = headers -> NO_ARGUMENTS;

  private final Metadata.Key<String>[] keys;

  private MetadataArguments(Metadata.Key<String>[] keys) {
    this.keys = keys;
  }

  @SuppressWarnings("unchecked")
  static MetadataArguments of(String field, String... names) {
    if (names.length == 0) {
      throw Options.invalid(field, "[]", "must name at least one key");
    }
    Metadata.Key<String>[] keys = new Metadata.Key[names.length];
    for (int i = 0; i < names.length; i++) {
      keys[i] = Options.asciiKey(field, names[i]);
    }
    return new MetadataArguments(keys);
  }

  @Override
  public @Nullable Object[] apply(Metadata headers) {
    Object[] args = new Object[keys.length];
    for (int i = 0; i < args.length; i++) {
      args[i] = bounded(firstValue(headers, keys[i]));
    }
    return args;
  }

  /** The key's first value, trimmed, or the empty string when the key is absent. */
  static String firstValue(Metadata headers, Metadata.Key<String> key) {
    Iterable<String> values = headers.getAll(key);
    if (values == null) {
      return "";
    }
    Iterator<String> first = values.iterator();
    return first.hasNext() ? first.next().trim() : "";
  }

  /** The value itself, or for one longer than {@link #MAX_LENGTH} its SHA-256 digest in hex. */
  static String bounded(String value) {
    if (value.length() <= MAX_LENGTH) {
      return value;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(value.getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException impossible) { // every JDK has SHA-256
      throw new IllegalStateException(impossible);
    }
  }
}
