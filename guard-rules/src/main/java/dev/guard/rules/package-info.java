/**
 * Rules as data. {@link dev.guard.rules.RuleFormat} reads and writes the JSON rule format (one
 * document describes an engine's whole rule set); {@link dev.guard.rules.RuleSources} makes the
 * sources that deliver rule sets to an engine (a watched file, a class path resource, memory;
 * {@code engine.attach(source, part)}), and {@link dev.guard.rules.PollingRuleSource} is the base
 * of sources that look at a store of their own. The format is described in docs/RULES.md.
 */
@NullMarked
package dev.guard.rules;

import dev.guard.spi.RulePart;
import org.jspecify.annotations.NullMarked;
