package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.testing.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One way to run Lua: every script is a resource file, composed with the shared prelude (the
 * server's clock written once), run by its SHA-1 and loaded again when the server lost it; and one
 * rule for an instance's id.
 */
@Tag("process")
class Issue36RedisScriptsTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Path SOURCES = Path.of("src/main/java/dev/guard/redis");

  private static List<Scripts.Script> scripts() throws IllegalAccessException {
    List<Scripts.Script> all = new ArrayList<>();
    for (Field field : Scripts.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == Scripts.Script.class) {
        all.add((Scripts.Script) field.get(null));
      }
    }
    return all;
  }

  @Test
  void everyScript_startsWithThePrelude_andOnlyThePreludeReadsTheServersClock() throws Exception {
    List<Scripts.Script> all = scripts();
    assertThat(all).hasSize(9);
    String prelude = all.get(0).text().substring(0, all.get(0).text().indexOf("\nend\n") + 5);
    for (Scripts.Script script : all) {
      assertThat(script.text()).as(script.name()).startsWith(prelude);
      assertThat(script.text().substring(prelude.length())).as(script.name())
          .doesNotContain("'TIME'");
    }
    assertThat(prelude).contains("redis.call('TIME')");
  }

  @Test
  void noJavaSource_holdsLuaOrRunsAScriptByItself() throws IOException {
    try (Stream<Path> files = Files.list(SOURCES)) {
      for (Path file : files.toList()) {
        String source = Files.readString(file);
        if (file.endsWith("Scripts.java")) {
          continue;
        }
        assertThat(source).as(file.toString())
            .doesNotContain("redis.call(")
            .doesNotContain(".evalsha(")
            .doesNotContain(".eval(");
      }
    }
  }

  @Test
  void run_afterTheServerLostItsScripts_loadsThemAgain() throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      RedisClient client = RedisClient.create(redis.uri());
      try (StatefulRedisConnection<String, String> connection = client.connect()) {
        RedisCommands<String, String> commands = connection.sync();
        for (int round = 0; round < 2; round++) {
          commands.scriptFlush();
          Long stored = Scripts.run(connection.async(), WAIT, Scripts.RULES_STORE,
              ScriptOutputType.INTEGER,
              new String[] {"k" + round}, "absent", "", "doc", "changed");
          assertThat(stored).isEqualTo(1L);
          assertThat(commands.scriptExists(Scripts.RULES_STORE.sha())).containsExactly(true);
          List<Object> listed = Scripts.run(connection.async(), WAIT, Scripts.FLEET_LIST,
              ScriptOutputType.MULTI, new String[] {"registry"}, "", "1000", "10");
          String now = listed.get(0).toString();
          assertThat(Long.parseLong(now)).as("the server's clock in ms")
              .isGreaterThan(1_600_000_000_000L);
        }
      } finally {
        client.shutdown();
      }
    }
  }

  @Test
  void instanceId_isCheckedTheSameWay_byTheTokenServiceAndTheFleet() {
    for (String bad : new String[] {"x}y", "a b", "", "x".repeat(129)}) {
      assertThatThrownBy(() -> RedisTokenService.builder("redis://127.0.0.1:1", "shop")
          .instanceId(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("instanceId must be 1 to 128 letters, digits or . _ : @ -, was '"
              + bad + "'");
    }
    String good = "host-1.shop:8080@eu_west";
    assertThat(InstanceIds.check(good)).isEqualTo(good);
  }
}
