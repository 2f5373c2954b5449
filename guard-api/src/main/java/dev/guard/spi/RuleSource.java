package dev.guard.spi;

/**
 * Where an engine's rules come from: a file, a configuration store, a dashboard. A source owns a
 * {@link RulePart} of the engine's rule set, chosen when it is attached, and delivers that part
 * whole to the {@link RuleSink} it is started with; the engine replaces the part with each
 * delivery atomically (docs/BEHAVIOUR.md, "Installing rules").
 *
 * <p>A source either pushes (calls the sink whenever it learns of a new set, from its own thread,
 * as a store's change notification does) or polls (checks for a change every so often, waiting on
 * {@link RuleSink#clock()}, the engine's time source, with {@link
 * dev.guard.spi.TimeSource#backgroundSleep}, so that tests drive it with a manual clock).
 * A source that cannot read a valid set calls {@link RuleSink#invalid}: the engine keeps its rules
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
  void start(RuleSink sink);

  /**
   * Stops delivering: no set reaches the engine after this returns, and threads the source started
   * have ended. The engine keeps the rules in force. Closing twice does nothing.
   */
  @Override
  void close();
}
