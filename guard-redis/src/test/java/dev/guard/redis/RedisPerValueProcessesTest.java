package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TokenService;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A per-key quota shared by engines in separate processes (JVMs started by the test) through one
 * real {@code redis-server}. The processes run their windows on clocks that stand still at the
 * same instant ({@code windowClock}), so every call of every process falls in one period of the
 * quota, whatever the real time the processes take to start: together they admit exactly each
 * key's quota.
 */
@Tag("process")
class RedisPerValueProcessesTest {

  /** The processes' fixed window time: four whole days, in nanoseconds. */
  private static final long WINDOW_NANOS = Duration.ofDays(4).toNanos();

  private static final List<String> KEYS = List.of("alice", "bob", "carol");

  /** How a process's result lines start: {@code admitted key count}. */
  private static final String RESULT = "admitted";

  /** The rule of every process: 10 calls a minute and 25 an hour per key. */
  static PerValueRule rule() {
    return PerValueRule.qps("api", 0, 10).withPeriod(Duration.ofMinutes(1))
        .withQuota(25, Duration.ofHours(1)).withCluster(ClusterMode.global("api-keys"));
  }

  @Test
  void threeProcesses_admitExactlyEachKeysQuota_betweenThem() throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      List<Process> processes = new ArrayList<>();
      List<Path> outputs = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        Path output = File.createTempFile("guard-quota-process", ".txt").toPath();
        output.toFile().deleteOnExit();
        outputs.add(output);
        processes.add(new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classPath(), Instance.class.getName(), redis.uri(), "8"))
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start());
      }
      Map<String, Integer> admitted = new HashMap<>();
      for (int i = 0; i < processes.size(); i++) {
        Process process = processes.get(i);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("process %d ended", i).isTrue();
        String printed = Files.readString(outputs.get(i), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("process %d: %s", i, printed).isZero();
        for (String line : printed.strip().split("\n")) {
          String[] parts = line.strip().split(" ");
          if (parts.length == 3 && parts[0].equals(RESULT)) { // other lines are the JVM's or logs
            admitted.merge(parts[1], Integer.parseInt(parts[2]), Integer::sum);
          }
        }
      }
      assertThat(admitted).as("8 calls per key in each of 3 processes, 10 a minute per key")
          .containsOnlyKeys(KEYS).allSatisfy((key, count) -> assertThat(count).isEqualTo(10));
    }
  }

  private static String classPath() {
    String tests = System.getProperty("surefire.test.class.path");
    return tests != null && !tests.isBlank() ? tests : System.getProperty("java.class.path");
  }

  /** One process: an engine on Redis whose windows stand still, calling each key. */
  static final class Instance {

    private Instance() {}

    /**
     * Calls each key {@code args[1]} times and prints {@code admitted key count} per key.
     *
     * @param args the Redis uri and the calls per key
     * @throws Exception if Redis cannot be reached
     */
    public static void main(String[] args) throws Exception {
      ManualClock standing = ManualClock.startingAt(WINDOW_NANOS);
      int calls = Integer.parseInt(args[1]);
      try (RedisTokenService service = RedisTokenService.builder(args[0], "processes")
          .windowClock(standing).requestTimeout(Duration.ofSeconds(5)).build()) {
        FlowRule probe = FlowRule.qps("probe", 1e9).withCluster(ClusterMode.global("probe"));
        if (TokenRequests.firstAnswer(service, probe).status() != TokenService.Result.Status.OK) {
          throw new IOException("Redis did not answer at " + args[0]);
        }
        GuardEngine engine = GuardEngine.builder().tokenService(service).build();
        engine.apply(engine.ruleSet().withRulesOf("api", List.of(rule())));
        for (String key : KEYS) {
          int admitted = 0;
          for (int i = 0; i < calls; i++) {
            try (Entry ignored = engine.resource("api").enter(key)) {
              admitted++;
            } catch (RefusedException.PerValue refused) {
              // the key's quota is spent
            }
          }
          System.out.println(RESULT + " " + key + " " + admitted);
        }
      }
    }
  }
}
