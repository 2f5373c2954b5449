package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import dev.guard.api.rule.InvalidRulesException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The JSON Schema and {@link RuleFormat} agree on generated and mutated documents ({@link
 * RuleDocuments#schemaDocuments()}): a document the format accepts conforms to the schema, and a
 * document that does not conform is invalid for the format, except where a number rounds onto a
 * bound ({@link SchemaOnly}). Where the format alone finds a document invalid, every one of its
 * errors is a check the schema cannot express, listed in {@link FormatOnly}. The figures (both
 * accept, both find invalid, and the documents only one side finds invalid, by reason) are in
 * the jqwik statistics report; {@code RuleSchemaDisagreementsTest} shows one document for each
 * reason.
 */
class RuleSchemaAgreementProperties {

  /**
   * The checks the rule format makes and the schema cannot: they span fields, rules or the JSON
   * text, or depend on how a number is written rather than on its value. Each is known by the
   * message of the format's error. docs/RULES.md ("Editing with the schema") lists them too.
   */
  enum FormatOnly {
    /** JSON Schema sees a parsed value: a repeated field name is gone by then. */
    REPEATED_FIELD("a field repeated in one object", message -> message.startsWith(
        "must not repeat the field")),
    /** Limits on the text: its length, nesting, and the length of one number or name. */
    TEXT_LIMIT("a limit on the document's text (size, nesting, a number's or a name's length)",
        message -> message.startsWith("the document must be at most")
            || message.startsWith("must nest arrays and objects at most")
            || message.startsWith("a number must be at most")
            || message.startsWith("a field name must be at most")
            || message.startsWith("a string must be at most")),
    /** A number beyond a double (1e400) where the schema sets no bound. */
    NON_FINITE_NUMBER("a number no double holds (1e400) where the schema sets no bound",
        message -> message.startsWith("must be a finite number")),
    /** The schema sees 1.0 and 1e2 as whole numbers; the format wants them written as such. */
    NUMBER_SPELLING("a whole number written with a fraction or an exponent (1.0, 1e2)",
        RuleSchemaAgreementProperties::integralNumberSpelledOtherwise),
    /** A duration's value: ISO-8601 text can spell one amount in endless ways (PT1H-1S). */
    DURATION_RANGE("a duration's range: more than zero, at most PT24H, whole milliseconds",
        message -> message.startsWith("must be positive, was \"")
            || message.startsWith("must not be negative, was \"")
            || message.startsWith("must be at most PT24H, was \"")
            || message.equals("must be whole milliseconds" + was(message))
            || message.startsWith("must be whole milliseconds from 1 ms to 1 day")),
    /** Well-formed ISO-8601 text for more seconds than java.time.Duration holds. */
    DURATION_OVERFLOW("a duration beyond java.time.Duration (PT9999999999999999H)",
        message -> message.startsWith("must be an ISO-8601 duration such as")),
    /** A window and its buckets, two fields (one of them perhaps defaulted). */
    BUCKETS_DIVIDE_WINDOW("a window divisible by its buckets into whole milliseconds",
        message -> message.startsWith("must be whole milliseconds divisible by buckets")
            || message.startsWith("must divide window (")),
    /** A per-value threshold (or an exception's) plus the burst: a sum of two fields. */
    TOKENS_WITH_BURST("a per-value threshold plus burst at most 16777215",
        message -> message.startsWith("plus burst ") || message.contains(" plus burst ")),
    /** Exception values compared as the value type reads them. */
    DISTINCT_EXCEPTION_VALUES("distinct exception values",
        message -> message.startsWith("must differ from the other exceptions' values")),
    /** An adaptive limit's bounds, three fields (some perhaps defaulted). */
    ADAPTIVE_LIMITS_IN_ORDER("adaptive limits in order: 1 <= minLimit <= initialLimit <= maxLimit",
        message -> message.startsWith("must be >= minLimit (")
            || message.startsWith("must be in [minLimit, maxLimit] = [")),
    /** A share above 0 that no double holds (1e-400): the format reads it as 0. */
    SHARE_ROUNDED_TO_ZERO("a share above 0 too small for a double (1e-400), read as 0",
        message -> message.startsWith("must be in (0, 1], was ")
            && new BigDecimal(message.substring("must be in (0, 1], was ".length())).signum() > 0),
    /** An adaptive limit's shares, a sum over the entries of an object. */
    SHARES_SUM("an adaptive limit's shares summing to at most 1",
        message -> message.startsWith("must sum to at most 1, was ")),
    /** Rules counted per resource across a list. */
    RULES_PER_RESOURCE("at most 64 perValue rules, 1 origins rule and 1 adaptiveConcurrency rule"
        + " per resource",
        message -> message.contains(" already has ")),
    /** A concurrency per-value rule's period, which must equal PT1S however it is spelled. */
    CONCURRENCY_PERIOD("a per-value concurrency rule's period left at PT1S",
        message -> message.contains("must be the default PT1S for metric CONCURRENCY"));

    final String reason;
    final Predicate<String> matches;

    FormatOnly(String reason, Predicate<String> matches) {
      this.reason = reason;
      this.matches = matches;
    }

    static @Nullable FormatOnly of(InvalidRulesException.Error error) {
      for (FormatOnly constraint : values()) {
        if (constraint.matches.test(error.message())) {
          return constraint;
        }
      }
      return null;
    }
  }

  /**
   * Where the schema is stricter: the format reads a number as the nearest {@code double} and
   * checks that, so a number beyond a bound by less than the rounding
   * ({@code 1.00000000000000001} for a ratio, {@code -1e-400} for a count) reads as the bound.
   */
  enum SchemaOnly {
    NUMBER_ROUNDED_ONTO_A_BOUND("a number beyond a bound by less than a double's rounding");

    final String reason;

    SchemaOnly(String reason) {
      this.reason = reason;
    }

    static @Nullable SchemaOnly of(Error error) {
      JsonNode value = error.getInstanceNode();
      JsonNode bound = error.getSchemaNode();
      if (value == null || !value.isNumber() || bound == null || !bound.isNumber()) {
        return null;
      }
      // as the format reads a number: the nearest double, infinite beyond a double's range
      double read = value.numberValue().doubleValue() + 0.0;
      boolean insideAsDouble = switch (error.getKeyword()) {
        case "minimum" -> read >= bound.numberValue().doubleValue();
        case "maximum" -> read <= bound.numberValue().doubleValue();
        default -> false;
      };
      return insideAsDouble ? NUMBER_ROUNDED_ONTO_A_BOUND : null;
    }
  }

  @Property(tries = 5000)
  void schemaAndFormat_agreeOnEveryDocument_butForTheListedChecks(
      @ForAll("documents") String document) {
    List<InvalidRulesException.Error> formatErrors = formatErrors(document);
    Optional<JsonNode> tree = RuleSchema.tree(document);
    List<Error> schemaErrors = tree.map(RuleSchema::errors).orElse(List.of());
    boolean schemaAccepts = tree.isPresent() && schemaErrors.isEmpty();
    boolean formatAccepts = formatErrors.isEmpty();

    if (schemaAccepts == formatAccepts) {
      Statistics.label("verdict").collect(formatAccepts ? "accepted by both"
          : tree.isEmpty() ? "invalid for both (not JSON)" : "invalid for both");
    } else if (schemaAccepts) {
      Statistics.label("verdict").collect("invalid for the format only");
      Set<String> reasons = new TreeSet<>();
      for (InvalidRulesException.Error error : formatErrors) {
        FormatOnly constraint = FormatOnly.of(error);
        assertThat(constraint).as("the schema accepts, the format finds invalid %s: %s\n%s",
            error.path(), error.message(), document).isNotNull();
        reasons.add(constraint.reason);
      }
      reasons.forEach(reason -> Statistics.label("format only, by reason").collect(reason));
    } else {
      assertThat(tree).as("only a JSON document can be accepted:\n%s", document).isPresent();
      Statistics.label("verdict").collect("invalid for the schema only");
      Set<String> reasons = new TreeSet<>();
      for (Error error : schemaErrors) {
        SchemaOnly constraint = SchemaOnly.of(error);
        assertThat(constraint).as("the format accepts, the schema finds invalid %s\n%s",
            RuleSchema.describe(List.of(error)), document).isNotNull();
        reasons.add(constraint.reason);
      }
      reasons.forEach(reason -> Statistics.label("schema only, by reason").collect(reason));
    }
  }

  @Provide
  Arbitrary<String> documents() {
    return RuleDocuments.schemaDocuments();
  }

  private static List<InvalidRulesException.Error> formatErrors(String document) {
    try {
      RuleFormat.parse(document);
      return List.of();
    } catch (InvalidRulesException invalid) {
      return invalid.errors();
    }
  }

  private static final Pattern WHOLE = Pattern.compile(
      "^must be a (whole number|int|long|string, number or boolean), was (.+)$");

  /** "must be a whole number, was 1.0": a number whose value is whole, written otherwise. */
  private static boolean integralNumberSpelledOtherwise(String message) {
    Matcher matcher = WHOLE.matcher(message);
    if (!matcher.matches()) {
      return false;
    }
    try {
      BigDecimal value = new BigDecimal(matcher.group(2));
      return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
    } catch (NumberFormatException notANumber) {
      return false;
    }
  }

  private static String was(String message) {
    int was = message.lastIndexOf(", was ");
    return was < 0 ? "" : message.substring(was);
  }
}
