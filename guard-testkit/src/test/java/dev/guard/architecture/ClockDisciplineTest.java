package dev.guard.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Only the system time source may read the system clock or put a thread to sleep: everything else
 * goes through a {@code TimeSource}, which is what makes every time-dependent behaviour testable
 * on a manual clock. Scans the code (not the comments) of every module's main sources.
 */
class ClockDisciplineTest {

  private static final Pattern FORBIDDEN = Pattern.compile(
      "System\\.nanoTime|System\\.currentTimeMillis|Thread\\.sleep|Instant\\.now|"
          + "LocalDateTime\\.now|Clock\\.system");
  private static final String ALLOWED = "SystemTimeSource.java";

  @Test
  void mainSources_readTimeOnlyThroughTheSystemTimeSource() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    List<Path> offenders;
    try (Stream<Path> modules = Files.list(root)) {
      offenders = modules
          .filter(module -> module.getFileName().toString().startsWith("guard-"))
          .filter(module -> !module.getFileName().toString().equals("guard-benchmarks"))
          .map(module -> module.resolve("src/main/java"))
          .filter(Files::isDirectory)
          .flatMap(ClockDisciplineTest::javaFiles)
          .filter(file -> !file.getFileName().toString().equals(ALLOWED))
          .filter(ClockDisciplineTest::readsTheClock)
          .collect(Collectors.toList());
    }

    assertThat(offenders).as("main sources that read the system clock or sleep").isEmpty();
  }

  @Test
  void scan_findsTheSystemTimeSource() throws IOException {
    Path api = Path.of("").toAbsolutePath().getParent().resolve("guard-api/src/main/java");

    assertThat(javaFiles(api).filter(ClockDisciplineTest::readsTheClock))
        .extracting(file -> file.getFileName().toString())
        .containsExactly(ALLOWED);
  }

  private static Stream<Path> javaFiles(Path dir) {
    try {
      return Files.walk(dir).filter(file -> file.toString().endsWith(".java")).toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean readsTheClock(Path file) {
    try {
      String code = Files.readString(file)
          .replaceAll("(?s)/\\*.*?\\*/", "")
          .replaceAll("//[^\n]*", "");
      return FORBIDDEN.matcher(code).find();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
