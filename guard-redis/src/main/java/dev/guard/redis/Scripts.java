package dev.guard.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Every Lua script of guard-redis, and the one way they run.
 *
 * <p>Each script is a resource file next to this class. Lua has no include, so a script's text is
 * {@code prelude.lua} (the functions scripts share, such as reading the server's clock) followed
 * by the script's own file, composed once when this class loads; its SHA-1 is computed then too.
 * {@link #run} sends {@code EVALSHA} and, when the server does not hold the script (a restart, a
 * failover, {@code SCRIPT FLUSH}), {@code EVAL}, which loads it for the next call.
 */
final class Scripts {

  private static final String PRELUDE = read("prelude.lua");

  /** Every decision of the token service (quota windows, concurrency tokens, request limit). */
  static final Script TOKENS = load("guard.lua");
  /** How many instances asked for a flow id lately. */
  static final Script COUNT_INSTANCES = load("count-instances.lua");
  /** The buckets of cluster per-value rules. */
  static final Script VALUES = load("guard-values.lua");
  /** A fleet member's heartbeat. */
  static final Script FLEET_PUBLISH = load("fleet-publish.lua");
  /** A fleet member's entry in the registry. */
  static final Script FLEET_REGISTER = load("fleet-register.lua");
  /** The fleet's members. */
  static final Script FLEET_LIST = load("fleet-list.lua");
  /** One member's heartbeat, bounded. */
  static final Script FLEET_READ = load("fleet-read.lua");
  /** A member leaves. */
  static final Script FLEET_LEAVE = load("fleet-leave.lua");
  /** A rule document stored if unchanged, with its notice. */
  static final Script RULES_STORE = load("rules-store.lua");

  /** A script: its resource's name, its text (prelude included) and that text's SHA-1. */
  record Script(String name, String text, String sha) {}

  private Scripts() {}

  /**
   * Runs a script by its digest, loading it when the server lacks it; waits for each answer at
   * most {@code timeout} (the caller's own: several callers may share one connection).
   *
   * @return the script's reply, as {@code type} reads it
   * @throws io.lettuce.core.RedisException if no answer came in time, Redis answered with an
   *     error, or the connection failed
   */
  static <T> T run(RedisScriptingAsyncCommands<String, String> commands, Duration timeout,
      Script script, ScriptOutputType type, String[] keys, String... args) {
    try {
      return Connector.await(commands.<T>evalsha(script.sha(), type, keys, args), timeout);
    } catch (RedisNoScriptException notLoaded) {
      return Connector.await(commands.<T>eval(script.text(), type, keys, args), timeout);
    }
  }

  /**
   * Loads a script into the server now, so that a later {@link #run} is one {@code EVALSHA} that
   * the server runs even if its answer is lost (a writer whose outcome must not hang on a second
   * round trip after a timeout loads its script when it connects).
   */
  static void preload(RedisScriptingAsyncCommands<String, String> commands, Duration timeout,
      Script script) {
    Connector.await(commands.scriptLoad(script.text()), timeout);
  }

  private static Script load(String name) {
    String text = PRELUDE + read(name);
    return new Script(name, text, sha1(text));
  }

  private static String read(String name) {
    try (InputStream in = Objects.requireNonNull(
        Scripts.class.getResourceAsStream(name), name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + name, e);
    }
  }

  private static String sha1(String text) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
