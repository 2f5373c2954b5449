package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.RulePart;
import dev.guard.spi.RuleSource;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36, finding 5: a document of 5,000 flow rules, 945 KB as sent, was accepted although
 * {@link RuleFormat#write} of its set is over the 1 MiB read limit, so a source stored a document
 * no engine reads. The limit is now on the written form, for reading and writing alike
 * (docs/RULES.md, "Reading and writing").
 */
class Issue36RuleDocumentSizeTest {

  private static final int MAX = RuleFormat.MAX_DOCUMENT_CHARS;
  private static final Pattern WRITTEN = Pattern.compile("must be at most " + MAX
      + " characters long as RuleFormat.write writes it, so that it reads back, was (\\d+)"
      + " characters");

  @TempDir Path dir;

  /** The finding's set: 5,000 flow rules on five resources, 945,022 characters as sent. */
  static List<Rule> finding() {
    List<Rule> rules = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      String resource = LargestRules.name("orders-service/partner-api/v2/" + (i % 5), 110);
      rules.add(FlowRule.qps(resource, 1000).withOrigin(LargestRules.name("partner-" + i, 40)));
    }
    return rules;
  }

  /** The written length an error names, checking that it names the limit too. */
  private static int writtenLength(InvalidRulesException refused) {
    assertThat(refused.errors()).hasSize(1);
    assertThat(refused.errors().get(0).path()).isEqualTo("rules");
    Matcher written = WRITTEN.matcher(refused.errors().get(0).message());
    assertThat(written.find()).as(refused.errors().get(0).message()).isTrue();
    return Integer.parseInt(written.group(1));
  }

  private static InvalidRulesException refusal(Runnable action) {
    try {
      action.run();
    } catch (InvalidRulesException refused) {
      return refused;
    }
    throw new AssertionError("expected an InvalidRulesException");
  }

  private static GuardEngine engine() {
    return GuardEngine.builder().clock(new ManualClock()).maxResources(100).build();
  }

  @Test
  void parse_compactDocumentWhoseWrittenFormIsOverTheLimit_isRefusedNamingSizeAndLimit() {
    String sent = CompactDocuments.of(finding());
    assertThat(sent.length()).isEqualTo(945_022);

    InvalidRulesException refused = refusal(() -> RuleFormat.parse(sent));

    assertThat(writtenLength(refused)).isEqualTo(1_115_035);
  }

  @Test
  void write_setOverTheLimit_isRefusedNamingSizeAndLimit() {
    InvalidRulesException refused = refusal(() -> RuleFormat.write(RuleSet.of(finding())));

    assertThat(writtenLength(refused)).isEqualTo(1_115_035);
  }

  @Test
  void fileWrite_setOverTheLimit_isRefusedBeforeAnythingIsAppliedOrStored() throws IOException {
    Path file = dir.resolve("rules.json");
    RuleSet before = RuleSet.of(FlowRule.qps("search", 50));
    Files.writeString(file, RuleFormat.write(before));
    GuardEngine engine = engine();
    try (RuleSource.Writable source = RuleSources.file(file)) {
      engine.attach(source, RulePart.all());

      InvalidRulesException refused = refusal(() -> source.write(RuleSet.of(finding())));

      assertThat(writtenLength(refused)).isEqualTo(1_115_035);
      assertThat(engine.ruleSet()).isEqualTo(before);
      assertThat(RuleFormat.parse(Files.readString(file))).isEqualTo(before);
    }
  }

  /**
   * The largest set: rules of every kind with every field at its longest, then flow rules whose
   * names fill what is left, until one more character would not fit.
   */
  static RuleSet largestSet() {
    List<Rule> rules = new ArrayList<>(List.of(LargestRules.system()));
    for (int group = 0; ; group++) {
      List<Rule> more = new ArrayList<>(rules);
      more.addAll(LargestRules.of("g" + group, RuleFormat.MAX_STRING_CHARS));
      if (!fits(more)) {
        break;
      }
      rules = more;
    }
    for (Rule rule : LargestRules.of("last", RuleFormat.MAX_STRING_CHARS)) {
      if (fits(with(rules, rule))) {
        rules = with(rules, rule);
      }
    }
    for (int pad = 0; fits(with(rules, padding(pad, 1))); pad++) {
      int grows = RuleFormat.write(RuleSet.of(with(rules, padding(pad, 1)))).length()
          - RuleFormat.write(RuleSet.of(rules)).length() - 1;
      int left = MAX - RuleFormat.write(RuleSet.of(rules)).length();
      rules = with(rules, padding(pad, Math.min(RuleFormat.MAX_STRING_CHARS, left - grows)));
    }
    return RuleSet.of(rules);
  }

  private static FlowRule padding(int pad, int length) {
    return FlowRule.qps(LargestRules.name("pad" + pad, Math.max(length, ("pad" + pad).length())),
        1);
  }

  private static List<Rule> with(List<Rule> rules, Rule rule) {
    List<Rule> more = new ArrayList<>(rules);
    more.add(rule);
    return more;
  }

  private static boolean fits(List<Rule> rules) {
    try {
      return RuleFormat.write(RuleSet.of(rules)).length() <= MAX;
    } catch (InvalidRulesException over) {
      return false;
    }
  }

  @Test
  void largestSet_ofEveryKindAtItsLongest_isWrittenWithinTheLimit_andReadsBackEqual() {
    RuleSet largest = largestSet();

    String written = RuleFormat.write(largest);

    assertThat(written.length()).isBetween(MAX - 64, MAX);
    assertThat(RuleFormat.parse(written)).isEqualTo(largest);
    assertThat(largest.rules()).extracting(rule -> rule.getClass().getSimpleName())
        .contains("FlowRule", "PerValueRule", "CircuitBreakerRule", "OriginRule", "SystemRule",
            "AdaptiveConcurrencyRule");
  }

  @Test
  void largestSet_plusOneRule_isRefusedByWrite_andItsShorterTextByParse() {
    List<Rule> over = with(largestSet().rules(), FlowRule.qps("one", 1));

    int written = writtenLength(refusal(() -> RuleFormat.write(RuleSet.of(over))));
    String sent = CompactDocuments.of(over);

    assertThat(written).isGreaterThan(MAX);
    assertThat(sent.length()).isLessThan(MAX);
    assertThat(writtenLength(refusal(() -> RuleFormat.parse(sent)))).isEqualTo(written);
  }

  @Test
  void largestSet_storedInAFile_isWhatASecondEngineAttachingTheFileGets() {
    RuleSet largest = largestSet();
    Path file = dir.resolve("rules.json");
    GuardEngine first = engine();
    GuardEngine second = engine();
    try (RuleSource.Writable writer = RuleSources.file(file);
        RuleSource.Writable reader = RuleSources.file(file)) {
      first.attach(writer, RulePart.all());
      writer.write(largest);

      second.attach(reader, RulePart.all());

      assertThat(first.ruleSet()).isEqualTo(largest);
      assertThat(second.ruleSet()).isEqualTo(largest);
    }
  }

  @Test
  void write_nameLongerThanTheReadLimit_isRefusedAtItsPath() {
    String name = LargestRules.name("long", RuleFormat.MAX_STRING_CHARS + 1);
    RuleSet set = RuleSet.of(FlowRule.qps("search", 5).withOrigin(name));

    InvalidRulesException refused = refusal(() -> RuleFormat.write(set));

    assertThat(refused.errors()).containsExactly(new InvalidRulesException.Error(
        "rules.flow[0].origin", "must be at most 4096 characters long to be read back, was 4097"
            + " characters"));
  }

  @Test
  void write_moreRulesOfAKindOnAResourceThanAnEngineTakes_isRefusedAtItsPath() {
    RuleSet set = RuleSet.of(OriginRule.allow("search", "ops"), OriginRule.deny("search", "bot"));

    InvalidRulesException refused = refusal(() -> RuleFormat.write(set));

    assertThat(refused.errors()).hasSize(1);
    assertThat(refused.errors().get(0).path()).isEqualTo("rules.origins[1].resource");
    assertThat(refused.errors().get(0).message()).contains("already has 1 origin rule");
  }
}
