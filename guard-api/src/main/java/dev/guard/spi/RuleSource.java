package dev.guard.spi;

import java.util.concurrent.ThreadFactory;
import dev.guard.api.rule.RuleSet;
import dev.guard.spi.TimeSource;
import dev.guard.api.rule.InvalidRulesException;
import java.util.List;
import java.util.Optional;

/**
 * Where an engine's rules come from: a file, a configuration store, a dashboard. A source owns a
 * {@link RulePart} of the engine's rule set, chosen when it is attached, and delivers that part
 * whole to the {@link RuleSource.Sink} it is started with; the engine replaces the part with each
 * delivery atomically (docs/BEHAVIOUR.md, "Installing rules").
 *
 * <p>A source either pushes (calls the sink whenever it learns of a new set, from its own thread,
 * as a store's change notification does) or polls (checks for a change every so often, waiting on
 * {@link RuleSource.Sink#clock()}, the engine's time source, with {@link
 * dev.guard.spi.TimeSource#backgroundSleep}, so that tests drive it with a manual clock).
 * A source that cannot read a valid set calls {@link RuleSource.Sink#invalid}: the engine keeps its rules
 * and its listeners hear why.
 *
 * <pre>{@code
 * RuleSource source = FileRuleSource.of(Path.of("/etc/shop/guard-rules.json"));
 * engine.attach(source, RulePart.all());   // applies the file now, then every change of it
 * ...
 * source.close();                 // stops watching; the rules in force stay
 * }</pre>
 */
public interface RuleSource extends AutoCloseable {

  /**
   * Returns a short description of the source for rule history and events, such as {@code
   * "file:/etc/shop/guard-rules.json"}.
   *
   * @return the name
   */
  String name();

  /**
   * Starts delivering rule sets to {@code sink}. Called once, by {@code GuardEngine#attach}; a
   * source delivers the set it has now before it returns (if it can read one), so an application
   * that attaches a source at startup serves its first call under those rules.
   *
   * @param sink where to deliver
   * @throws IllegalStateException if the source was started already or is closed
   */
  void start(RuleSource.Sink sink);

  /**
   * Stops delivering: no set reaches the engine after this returns, and threads the source started
   * have ended. The engine keeps the rules in force. Closing twice does nothing.
   */
  @Override
  void close();

  /**
   * The engine's end of a {@link RuleSource}: what the source delivers to. The source owns one
   * {@linkplain #part() part} of the engine's rule set; every delivery replaces that part, and is
   * recorded under the source's name. Thread-safe.
   */
  interface Sink {

    /**
     * Returns the engine's time source: polling sources wait on it between two looks, with {@link
     * TimeSource#backgroundSleep}, so that a manual clock drives them in tests (a poller then looks
     * again when the test has advanced the clock by its interval, and never moves the clock).
     *
     * @return the engine's time source
     */
    TimeSource clock();

    /**
     * Returns where the source's threads come from: the engine's ({@code GuardEngine.threads()}),
     * so that a poller or a listener runs on the threads the application chose for guard. The
     * default makes platform threads.
     *
     * @return the thread factory
     */
    default ThreadFactory threads() {
      return Thread::new;
    }

    /**
     * Returns the part of the engine's rule set the source owns, as attached ({@code
     * GuardEngine#attach}). A source checks its document against it: a document holding a rule
     * outside the part is invalid and goes to {@link #invalid} with the rules' paths.
     *
     * @return the source's part
     */
    RulePart part();

    /**
     * Makes the source's part of the engine's rules exactly {@code rules}, atomically, as one
     * revision; rules outside the part stay as they are.
     *
     * @param rules the part's new rules
     * @return the new revision, or empty if the rules in force were already equal
     * @throws InvalidRulesException if a rule lies outside the part or the engine could not apply
     *     the rules (its listeners heard why; the rules in force did not change)
     */
    Optional<RuleSet.Revision> apply(RuleSet rules);

    /**
     * Reports that the source could not read a valid rule set: the engine keeps its rules and tells
     * its listeners ({@link EngineListener#onRulesInvalid}).
     *
     * @param errors every reason, each with where the problem is
     */
    void invalid(List<InvalidRulesException.Error> errors);
  }

  /**
   * A rule source the application can write to: operators' tools and dashboards change the rules by
   * writing a whole set back to where the rules live, and every engine attached to the source picks
   * it up.
   *
   * <pre>{@code
   * RuleSource.Writable source = RuleSources.file(path);
   * engine.attach(source);
   * source.write(RuleSet.of(List.of(FlowRule.qps("search", 80))));   // applied, then saved
   * }</pre>
   */
  interface Writable extends RuleSource {

    /**
     * Writes a whole rule set to the source. When the source is attached to an engine, the set is
     * applied before it is stored, so a set the engine refuses is not stored.
     *
     * @param rules the rule set
     * @throws InvalidRulesException if the attached engine refused the set (nothing was stored)
     * @throws java.io.UncheckedIOException if the set could not be stored
     */
    void write(RuleSet rules);
  }
}
