package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.guard.api.rule.InvalidRulesException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;

/**
 * Every rule document the project's documentation shows (a {@code ```json} refused of README.md or
 * docs/*.md that has a {@code "version"}) conforms to the JSON Schema and reads with {@link
 * RuleFormat}.
 */
class RuleDocsExamplesTest {

  /** One {@code ```json} refused: its file (from the repository root), number and first line. */
  record Block(String file, int number, int line, String text) {
    @Override
    public String toString() {
      return file + " json refused " + number + " (line " + line + ")";
    }
  }

  @TestFactory
  Stream<DynamicTest> everyDocumentedRuleDocument_conformsToTheSchemaAndParses() {
    return ruleDocuments().stream().map(refused -> DynamicTest.dynamicTest(refused.toString(), () -> {
      JsonNode tree = RuleSchema.tree(refused.text())
          .orElseGet(() -> fail(refused + " is not JSON:\n" + refused.text()));
      assertThat(RuleSchema.describe(RuleSchema.errors(tree)))
          .as(refused + " must conform to rules.schema.json").isEmpty();
      try {
        RuleFormat.parse(refused.text());
      } catch (InvalidRulesException invalid) {
        fail(refused + " must parse with RuleFormat: " + invalid.errors());
      }
    }));
  }

  @Test
  void theDocumentation_showsRuleDocumentsInTheRulesGuide() {
    assertThat(ruleDocuments()).extracting(Block::file).contains("docs/RULES.md");
  }

  static List<Block> ruleDocuments() {
    Path root = repositoryRoot();
    List<Path> files = new ArrayList<>();
    files.add(root.resolve("README.md"));
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(files::add);
    } catch (IOException unreadable) {
      throw new UncheckedIOException(unreadable);
    }
    List<Block> refusals = new ArrayList<>();
    for (Path file : files) {
      refusals.addAll(jsonBlocks(root.relativize(file).toString().replace('\\', '/'), read(file)));
    }
    return refusals.stream().filter(refused -> refused.text().contains("\"version\"")).toList();
  }

  private static List<Block> jsonBlocks(String file, List<String> lines) {
    List<Block> refusals = new ArrayList<>();
    int number = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).strip().equals("```json")) {
        continue;
      }
      number++;
      int start = i + 1;
      int end = start;
      while (end < lines.size() && !lines.get(end).strip().equals("```")) {
        end++;
      }
      refusals.add(new Block(file, number, start,
          String.join("\n", lines.subList(start, end)) + "\n"));
      i = end;
    }
    return refusals;
  }

  /** The module runs its tests in its own directory; the repository root is its parent. */
  private static Path repositoryRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))
          && Files.isDirectory(dir.resolve("guard-rules"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
  }

  private static List<String> read(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException unreadable) {
      throw new UncheckedIOException(unreadable);
    }
  }
}
