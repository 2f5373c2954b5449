package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
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

/**
 * Every rule document the project's documentation shows (a {@code ```json} block of README.md or
 * docs/*.md that has a {@code "version"}) conforms to the JSON Schema and reads with {@link
 * RuleFormat}.
 */
class RuleDocsExamplesTest {

  /** One {@code ```json} block: its file (from the repository root), number and first line. */
  record Block(String file, int number, int line, String text) {
    @Override
    public String toString() {
      return file + " json block " + number + " (line " + line + ")";
    }
  }

  @TestFactory
  Stream<DynamicTest> everyDocumentedRuleDocument_conformsToTheSchemaAndParses() {
    return ruleDocuments().stream().map(block -> DynamicTest.dynamicTest(block.toString(), () -> {
      JsonNode tree = RuleSchema.tree(block.text())
          .orElseGet(() -> fail(block + " is not JSON:\n" + block.text()));
      assertThat(RuleSchema.describe(RuleSchema.errors(tree)))
          .as(block + " must conform to rules.schema.json").isEmpty();
      try {
        RuleFormat.parse(block.text());
      } catch (InvalidRulesException invalid) {
        fail(block + " must parse with RuleFormat: " + invalid.errors());
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
    List<Block> blocks = new ArrayList<>();
    for (Path file : files) {
      blocks.addAll(jsonBlocks(root.relativize(file).toString().replace('\\', '/'), read(file)));
    }
    return blocks.stream().filter(block -> block.text().contains("\"version\"")).toList();
  }

  private static List<Block> jsonBlocks(String file, List<String> lines) {
    List<Block> blocks = new ArrayList<>();
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
      blocks.add(new Block(file, number, start,
          String.join("\n", lines.subList(start, end)) + "\n"));
      i = end;
    }
    return blocks;
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
