package dev.guard.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages form a one-way stack: a package uses only packages below it (and its
 * own), never one beside it in the same layer or above it. Read from the main sources: explicit
 * imports, static imports and fully qualified names in code (comments and strings do not count).
 */
class LayersTest {

  private static final String INTERNAL = "dev.guard.engine.internal";

  /** Bottom first; packages in one layer must not use each other. */
  static final List<List<String>> LAYERS = List.of(
      List.of(INTERNAL + ".host"),
      List.of(INTERNAL + ".stat"),
      List.of(INTERNAL + ".node"),
      List.of(INTERNAL + ".chain"),
      List.of(INTERNAL + ".quota"),
      List.of(INTERNAL + ".flow", INTERNAL + ".pervalue", INTERNAL + ".breaker",
          INTERNAL + ".origin", INTERNAL + ".system", INTERNAL + ".adaptive"),
      List.of(INTERNAL + ".registry"),
      List.of(INTERNAL + ".rules", INTERNAL + ".call", INTERNAL + ".telemetry"),
      List.of(INTERNAL),
      List.of("dev.guard.engine"));

  private static final Path MAIN = Path.of("src", "main", "java");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");
  private static final Pattern REFERENCE =
      Pattern.compile("\\b(dev\\.guard(?:\\.[a-z]\\w*)+)\\.[A-Z]\\w*");
  private static final Pattern NOISE =
      Pattern.compile("/\\*.*?\\*/|//[^\\n]*|'(?:\\\\.|[^'\\\\])'|\"(?:\\\\.|[^\"\\\\])*\"",
          Pattern.DOTALL);

  @Test
  void mainSources_useOnlyPackagesBelowThem() {
    List<String> wrong = check(read(MAIN), LAYERS);

    assertThat(wrong).as("imports against the engine's layers").isEmpty();
  }

  @Test
  void mainSources_haveNoPackageCycle() {
    Map<String, Set<String>> graph = graph(read(MAIN));

    assertThat(cycle(graph)).as("a package cycle").isEmpty();
  }

  @Test
  void check_upwardAndSidewaysUses_areListedWithFileAndImport() {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put("a/Stat.java", "package dev.guard.engine.internal.stat;\n"
        + "import dev.guard.engine.internal.chain.Call; // up\n");
    sources.put("a/Flow.java", "package dev.guard.engine.internal.flow;\n"
        + "class Flow { dev.guard.engine.internal.breaker.Breaker b; }\n");
    sources.put("a/Node.java", "package dev.guard.engine.internal.node;\n"
        + "import dev.guard.engine.internal.stat.StatisticNode;\n"
        + "/** {@link dev.guard.engine.GuardEngine} */ class Node { String s = \"dev.guard.X.Y\"; }\n");

    assertThat(check(sources, LAYERS)).containsExactly(
        "a/Stat.java: dev.guard.engine.internal.chain.Call (internal.stat must not use internal.chain)",
        "a/Flow.java: dev.guard.engine.internal.breaker.Breaker"
            + " (internal.flow must not use internal.breaker)");
  }

  @Test
  void cycle_ofTwoPackages_isFound() {
    Map<String, Set<String>> graph = Map.of("a", Set.of("b"), "b", Set.of("a"), "c", Set.of("a"));

    assertThat(cycle(graph)).containsExactly("a", "b", "a");
  }

  /** Every main source file by its path, with its text. */
  private static Map<String, String> read(Path root) {
    Map<String, String> sources = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : (Iterable<Path>) files.filter(LayersTest::isSource)::iterator) {
        sources.put(root.relativize(file).toString(), Files.readString(file));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(sources).as("main sources under " + root.toAbsolutePath()).isNotEmpty();
    return sources;
  }

  private static boolean isSource(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".java") && !name.equals("module-info.java")
        && !name.equals("package-info.java");
  }

  /** One line per use against the layers: the file, what it uses and why that is wrong. */
  static List<String> check(Map<String, String> sources, List<List<String>> layers) {
    Map<String, Integer> layerOf = new HashMap<>();
    for (int i = 0; i < layers.size(); i++) {
      for (String name : layers.get(i)) {
        layerOf.put(name, i);
      }
    }
    List<String> wrong = new ArrayList<>();
    for (Map.Entry<String, String> source : sources.entrySet()) {
      String own = packageOf(source.getValue());
      Integer ownLayer = layerOf.get(own);
      if (ownLayer == null) {
        wrong.add(source.getKey() + ": package " + own + " is in no layer");
        continue;
      }
      for (String used : uses(source.getValue())) {
        String target = packageOfType(used);
        Integer targetLayer = layerOf.get(target);
        if (target.equals(own) || targetLayer == null || targetLayer < ownLayer) {
          continue; // its own package, a package of another module, or one below
        }
        wrong.add(source.getKey() + ": " + used + " (" + shortName(own) + " must not use "
            + shortName(target) + ")");
      }
    }
    return wrong;
  }

  /** Which packages of the sources use which others. */
  static Map<String, Set<String>> graph(Map<String, String> sources) {
    Map<String, Set<String>> graph = new TreeMap<>();
    for (String text : sources.values()) {
      graph.computeIfAbsent(packageOf(text), ignored -> new TreeSet<>());
    }
    for (String text : sources.values()) {
      String own = packageOf(text);
      for (String used : uses(text)) {
        String target = packageOfType(used);
        if (!target.equals(own) && graph.containsKey(target)) {
          graph.get(own).add(target);
        }
      }
    }
    return graph;
  }

  /** A cycle of the graph as its packages in order, first repeated at the end; empty if none. */
  static List<String> cycle(Map<String, Set<String>> graph) {
    Map<String, Integer> state = new HashMap<>(); // 1: on the current path, 2: done
    for (String start : new TreeSet<>(graph.keySet())) {
      List<String> path = new ArrayList<>();
      List<String> found = visit(start, graph, state, path);
      if (!found.isEmpty()) {
        return found;
      }
    }
    return List.of();
  }

  private static List<String> visit(String node, Map<String, Set<String>> graph,
      Map<String, Integer> state, List<String> path) {
    Integer seen = state.get(node);
    if (seen != null) {
      if (seen == 2) {
        return List.of();
      }
      List<String> loop = new ArrayList<>(path.subList(path.indexOf(node), path.size()));
      loop.add(node);
      return loop;
    }
    state.put(node, 1);
    path.add(node);
    for (String next : new TreeSet<>(graph.getOrDefault(node, Set.of()))) {
      List<String> found = visit(next, graph, state, path);
      if (!found.isEmpty()) {
        return found;
      }
    }
    path.remove(path.size() - 1);
    state.put(node, 2);
    return List.of();
  }

  private static String packageOf(String text) {
    Matcher m = PACKAGE.matcher(text);
    return m.find() ? m.group(1) : "";
  }

  /** Every qualified type name the code uses (imports included), in order of appearance. */
  private static Set<String> uses(String text) {
    String code = NOISE.matcher(text).replaceAll(" ");
    Set<String> used = new LinkedHashSet<>();
    Matcher m = REFERENCE.matcher(code);
    while (m.find()) {
      used.add(m.group());
    }
    return used;
  }

  private static String packageOfType(String qualified) {
    return qualified.substring(0, qualified.lastIndexOf('.'));
  }

  private static String shortName(String pkg) {
    return pkg.startsWith(INTERNAL + ".") ? pkg.substring("dev.guard.engine.".length()) : pkg;
  }
}
