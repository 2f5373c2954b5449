package dev.guard.rules;

import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.spi.RulePart;
import dev.guard.rules.internal.Fields;
import dev.guard.rules.internal.JsonErrors;
import dev.guard.rules.internal.KindFormat;
import dev.guard.rules.internal.Kinds;
import dev.guard.rules.internal.NonFiniteNumbers;
import dev.guard.rules.internal.Problems;
import dev.guard.rules.internal.ReadBack;
import dev.guard.rules.internal.SchemaText;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.DefaultIndenter;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON rule format: one document describes an engine's whole rule set, every kind in its own
 * list, with field names as the DSL spells them and durations as ISO-8601 strings. The format is
 * described in docs/RULES.md.
 *
 * <pre>{@code
 * RuleSet rules = RuleFormat.parse("""
 *     {
 *       "version": 1,
 *       "flow": [
 *         {"resource": "search", "qps": 50},
 *         {"resource": "checkout", "qps": 40, "warmUp": {"period": "PT10S"}}
 *       ]
 *     }
 *     """);
 * String json = RuleFormat.write(rules);     // parses back to an equal set
 * }</pre>
 *
 * <p>Reading is safe on untrusted input: Jackson's tree model only (no class is ever named or
 * instantiated from the input), at most {@value #MAX_DOCUMENT_CHARS} characters, nesting at most
 * {@value #MAX_NESTING} deep, strings at most {@value #MAX_STRING_CHARS} characters, duplicate
 * field names refused, numbers that no {@code double} holds ({@code 1e400}) refused. Errors
 * name the JSON path where one is known. Thread-safe.
 *
 * <p>The same limits bound what is written, so that every set {@link #parse} returns can be
 * written and every document {@link #write} returns reads back: a set whose written document
 * would be longer than {@value #MAX_DOCUMENT_CHARS} characters (or hold a longer string than
 * {@value #MAX_STRING_CHARS} characters) is refused by both, even when the document that was read
 * was shorter, written without spaces. Sources that store documents write them with {@link
 * #write}, so none stores one that no engine reads.
 *
 * <p>The document's JSON Schema ({@link #schema()}, draft 2020-12) lets editors complete and check
 * a rules file; a document may name it in a top-level {@code "$schema"} string, which this class
 * reads past and never writes. The schema describes every field, type, range and default; checks
 * that span fields or rules (a duration's range, a window divisible by its buckets, distinct
 * exception values, rules per resource) are made here only.
 */
public final class RuleFormat {

  /** The format version this class reads and writes: a document's {@code "version"} field. */
  public static final int VERSION = 1;

  /**
   * The longest document read, and the longest {@link #write} writes, in characters (1 MiB): a
   * rule set whose written document is longer is refused when read and when written.
   */
  public static final int MAX_DOCUMENT_CHARS = 1 << 20;

  /** The deepest nesting of arrays and objects read. */
  public static final int MAX_NESTING = 16;

  /** The longest string (a name or a value) read, in characters. */
  public static final int MAX_STRING_CHARS = 4096;

  /** The JSON Schema's {@code $id}: {@value}. It names the schema; {@link #schema()} gives it. */
  public static final String SCHEMA_ID = "https://guard.dev/schemas/rules-1.schema.json";

  /**
   * Where the JSON Schema lies in this module's jar: {@value}. Within a module path, other modules
   * cannot read this resource; {@link #schema()} returns its text anywhere.
   */
  public static final String SCHEMA_RESOURCE = "dev/guard/rules/rules.schema.json";

  private static final String ROOT = "rules";

  /** The document field that names a schema for editors; read past, never written. */
  private static final String SCHEMA_FIELD = "$schema";

  private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
          .streamReadConstraints(StreamReadConstraints.builder()
              .maxDocumentLength(MAX_DOCUMENT_CHARS)
              .maxNestingDepth(MAX_NESTING)
              .maxStringLength(MAX_STRING_CHARS)
              .maxNameLength(MAX_STRING_CHARS)
              .maxNumberLength(64)
              .build())
          .build())
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      // an error shows a decimal as read, without trailing zeros (1e12 and 1000000000000.0 are
      // both 1E+12), as it always has
      .enable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
      .build();

  private static final ObjectWriter PRETTY = MAPPER.writer().with(new DefaultPrettyPrinter()
      .withSeparators(Separators.createDefaultInstance()
          .withObjectNameValueSpacing(Separators.Spacing.AFTER))
      .withObjectIndenter(new DefaultIndenter("  ", "\n"))
      .withArrayIndenter(new DefaultIndenter("  ", "\n")));

  private RuleFormat() {}

  /**
   * Reads a rules document. Every problem is reported at once, each with its JSON path and the
   * value at fault ({@code rules.flow[3].qps: must be finite and >= 0, was -5}); a document with
   * any problem yields no rule at all.
   *
   * @param json the document
   * @return the rule set it describes
   * @throws InvalidRulesException if the document is not valid JSON, exceeds a limit (its own
   *     text, or its set as {@link #write} would write it), or does not describe a valid rule set
   */
  public static RuleSet parse(String json) {
    return parse(json, RulePart.all());
  }

  /**
   * Reads a rules document of a source that owns a part of an engine's rules ({@link
   * dev.guard.spi.RuleSource.Sink#part()}): like {@link #parse(String)}, and a rule outside the part is
   * a problem too, at its JSON path ({@code rules.flow[0]: must lie in the source's part ...}).
   *
   * <pre>{@code
   * RuleSet rules = RuleFormat.parse(text, sink.part());
   * }</pre>
   *
   * @param json the document
   * @param part the part the document may hold rules of
   * @return the rule set it describes
   * @throws InvalidRulesException if the document is not valid, or holds a rule outside the part
   */
  public static RuleSet parse(String json, RulePart part) {
    Objects.requireNonNull(json, "json");
    Objects.requireNonNull(part, "part");
    if (json.length() > MAX_DOCUMENT_CHARS) {
      throw invalid(ROOT, "the document must be at most " + MAX_DOCUMENT_CHARS
          + " characters long, was " + json.length());
    }
    if (json.isBlank()) {
      throw invalid(ROOT, "the document is empty");
    }
    JsonNode root = read(json);
    if (root == null || !root.isObject()) {
      throw invalid(ROOT, "must be a JSON object, was "
          + (root == null ? "nothing" : Fields.show(root)));
    }
    Problems problems = new Problems();
    NonFiniteNumbers.refuse(root, ROOT, problems);
    Fields document = new Fields((ObjectNode) root, ROOT, problems);
    readVersion(document);
    List<Rule> rules = new ArrayList<>();
    for (KindFormat<?> kind : Kinds.ALL) {
      readKind(kind, (ObjectNode) root, document, problems, rules, part);
    }
    document.string(SCHEMA_FIELD); // an editor's schema association: must be a string, else unused
    document.finish();
    problems.throwIfAny();
    RuleSet set = RuleSet.of(rules);
    write(set); // refuses a set whose written document would not read back (docs/RULES.md)
    return set;
  }

  /**
   * The JSON Schema (draft 2020-12) of the documents {@link #parse} reads, with a title and a
   * description for every field, so that editors complete and explain them; its {@code $id} is
   * {@link #SCHEMA_ID}. Save it next to a rules file and name it there ({@code "$schema":
   * "./rules.schema.json"}), or map rules files to it in the editor (docs/RULES.md, "Editing with
   * the schema").
   *
   * @return the schema's text
   */
  public static String schema() {
    return SchemaText.text();
  }

  private static void readVersion(Fields document) {
    Integer version = document.wholeNumber("version");
    document.require("version", version);
    if (version != null && version != VERSION) {
      document.error("version", "must be " + VERSION + " (the only version this guard reads), was "
          + version);
    }
  }

  private static void readKind(KindFormat<?> kind, ObjectNode root, Fields document,
      Problems problems, List<Rule> rules, RulePart part) {
    document.has(kind.key()); // marks the field as known
    JsonNode list = root.get(kind.key());
    if (list == null || list.isNull()) {
      return;
    }
    String path = document.path(kind.key());
    if (!list.isArray()) {
      problems.add(path, "must be a list of rules, was " + Fields.show(list));
      return;
    }
    ReadBack counts = new ReadBack();
    for (int i = 0; i < list.size(); i++) {
      JsonNode item = list.get(i);
      String itemPath = path + "[" + i + "]";
      if (!item.isObject()) {
        problems.add(itemPath, "must be an object, was " + Fields.show(item));
        continue;
      }
      Rule rule = kind.read(new Fields((ObjectNode) item, itemPath, problems));
      if (rule != null && !part.contains(rule)) {
        problems.add(itemPath, "must lie in the source's part " + part + ", was outside it");
      } else if (rule != null && counts.fitsItsResource(kind, rule, itemPath, problems)) {
        rules.add(rule);
      }
    }
  }

  /**
   * Writes a rule set as a document that {@link #parse} reads back to an equal set: version
   * first, then each kind that has rules, two-space indented. A set whose document would not read
   * back is refused, with every reason at once: a document longer than {@value
   * #MAX_DOCUMENT_CHARS} characters as written here ({@code rules: must be at most 1048576
   * characters long as RuleFormat.write writes it, ..., was 1115035 characters}), a name longer
   * than {@value #MAX_STRING_CHARS} characters, or more rules of a kind on one resource than an
   * engine takes. {@link #parse} refuses the same sets, so every set it returns can be written.
   *
   * @param rules the rule set
   * @return the document, at most {@value #MAX_DOCUMENT_CHARS} characters long
   * @throws InvalidRulesException if the document would not read back, naming the limit and the
   *     value over it at the document's path
   * @throws IllegalArgumentException if a rule is of a kind the format does not know
   */
  public static String write(RuleSet rules) {
    Objects.requireNonNull(rules, "rules");
    ObjectNode root = MAPPER.createObjectNode();
    root.put("version", VERSION);
    for (Rule rule : rules.rules()) {
      if (Kinds.of(rule) == null) {
        throw new IllegalArgumentException(
            "rule must be of a kind the rule format knows, was " + rule);
      }
    }
    Problems problems = new Problems();
    for (KindFormat<?> kind : Kinds.ALL) {
      writeKind(kind, rules, root, problems);
    }
    ReadBack.longStrings(root, ROOT, MAX_STRING_CHARS, problems);
    problems.throwIfAny();
    String document;
    try {
      document = PRETTY.writeValueAsString(root) + "\n";
    } catch (JacksonException impossible) {
      throw new IllegalStateException("a JSON tree could not be written", impossible);
    }
    ReadBack.documentLength(document.length(), ROOT, MAX_DOCUMENT_CHARS, problems);
    problems.throwIfAny();
    return document;
  }

  private static <R extends Rule> void writeKind(KindFormat<R> kind, RuleSet rules,
      ObjectNode root, Problems problems) {
    List<R> own = rules.rulesOf(kind.type());
    if (own.isEmpty()) {
      return;
    }
    ArrayNode list = root.putArray(kind.key());
    ReadBack counts = new ReadBack();
    for (int i = 0; i < own.size(); i++) {
      counts.fitsItsResource(kind, own.get(i), ROOT + "." + kind.key() + "[" + i + "]", problems);
      kind.write(own.get(i), list.addObject());
    }
  }

  private static @Nullable JsonNode read(String json) {
    JsonParser parser = null;
    try {
      parser = MAPPER.createParser(json);
      return MAPPER.readTree(parser);
    } catch (JacksonException unreadable) {
      throw new InvalidRulesException(List.of(JsonErrors.describe(unreadable, parser, ROOT)));
    }
  }

  private static InvalidRulesException invalid(String path, String message) {
    return new InvalidRulesException(List.of(new InvalidRulesException.Error(path, message)));
  }
}
