package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * docs/RULES.md, "Reading and writing": the sets the format reads are the sets it writes, near the
 * document limit as well as far below it. Generated sets of every kind, with names from one
 * character to the string limit and written forms from small to just under and just over the
 * document limit: {@link RuleFormat#write} either returns a document within the limit that parses
 * back to an equal set, or refuses the set; and the same rules written without spaces parse to
 * the set exactly when {@code write} accepts it, else are refused, with {@code write}'s own error
 * when they are within the limit.
 */
class RuleDocumentSizeProperties {

  private static final int MAX = RuleFormat.MAX_DOCUMENT_CHARS;
  /** The kinds {@link #build} picks from: {@link LargestRules#of}'s, then a plain flow rule. */
  private static final int KINDS = 7;

  @Property(tries = 20)
  void setsNearTheLimit_parseAcceptsExactlyWhatWriteWrites_andItReadsBackEqual(
      @ForAll("nearTheLimit") List<Rule> rules) {
    check(rules);
  }

  @Property(tries = 200)
  void smallSets_parseAcceptsExactlyWhatWriteWrites_andItReadsBackEqual(
      @ForAll("small") List<Rule> rules) {
    check(rules);
  }

  private static void check(List<Rule> rules) {
    RuleSet set = RuleSet.of(rules);
    String sent = CompactDocuments.of(rules);
    String written;
    try {
      written = RuleFormat.write(set);
    } catch (InvalidRulesException refused) {
      Statistics.label("write").collect("refused");
      List<InvalidRulesException.Error> read = refused(sent); // refused as well
      if (sent.length() <= MAX) {
        assertThat(read).isEqualTo(refused.errors());
      }
      return;
    }
    Statistics.label("write").collect("written");
    assertThat(written.length()).isLessThanOrEqualTo(MAX);
    assertThat(RuleFormat.parse(written)).isEqualTo(set);
    assertThat(RuleFormat.parse(sent)).isEqualTo(set);
  }

  private static List<InvalidRulesException.Error> refused(String document) {
    try {
      RuleFormat.parse(document);
    } catch (InvalidRulesException refused) {
      return refused.errors();
    }
    throw new AssertionError("parse accepted a set write refuses");
  }

  @Provide
  Arbitrary<List<Rule>> nearTheLimit() {
    return sets(Arbitraries.integers().between(MAX - MAX / 16, MAX + MAX / 16));
  }

  @Provide
  Arbitrary<List<Rule>> small() {
    return sets(Arbitraries.integers().between(0, 40_000));
  }

  /** Sets whose rules, each written on its own, add up to about {@code sizes} characters. */
  private static Arbitrary<List<Rule>> sets(Arbitrary<Integer> sizes) {
    Arbitrary<Integer> nameLengths = Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.integers().between(1, 16)),
        Tuple.of(1, Arbitraries.integers().between(17, 512)),
        Tuple.of(2, Arbitraries.integers().between(513, RuleFormat.MAX_STRING_CHARS)));
    Arbitrary<List<Integer>> kinds = Arbitraries.integers().between(0, KINDS - 1).list()
        .ofMinSize(1).ofMaxSize(8);
    Arbitrary<Double> thresholds = Arbitraries.doubles().between(0, 1e9);
    return Combinators.combine(sizes, nameLengths, kinds, thresholds, Arbitraries.of(true, false))
        .as(RuleDocumentSizeProperties::build);
  }

  /**
   * Rules of the kinds in turn, each on a resource of its own (so no resource has more rules of a
   * kind than an engine takes), until their written forms add up to {@code size} characters.
   */
  private static List<Rule> build(int size, int nameLength, List<Integer> kinds,
      double threshold, boolean system) {
    List<Rule> rules = new ArrayList<>();
    int total = 0;
    if (system) {
      rules.add(LargestRules.system());
      total += CompactDocuments.writtenLength(LargestRules.system());
    }
    for (int i = 0; total < size; i++) {
      int kind = kinds.get(i % kinds.size());
      String tag = "t" + i;
      Rule rule = kind < KINDS - 1 ? LargestRules.of(tag, nameLength).get(kind)
          : FlowRule.qps(LargestRules.name(tag, nameLength), threshold);
      rules.add(rule);
      total += CompactDocuments.writtenLength(rule) - "{\n  \"version\": 1,\n}\n".length();
    }
    return rules;
  }
}
