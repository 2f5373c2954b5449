/**
 * Rules as data. {@link dev.guard.rules.RuleFormat} reads and writes the JSON rule format (one
 * document describes an engine's whole rule set); {@link dev.guard.rules.FileRuleSource}, {@link
 * dev.guard.rules.ClasspathRuleSource} and {@link dev.guard.rules.MemoryRuleSource} deliver rule
 * sets to an engine ({@code engine.attach(source, RulePart.all())}). The format is described in docs/RULES.md.
 */
@NullMarked
package dev.guard.rules;

import dev.guard.spi.RulePart;
import org.jspecify.annotations.NullMarked;
