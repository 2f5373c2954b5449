/**
 * Helpers for testing code protected by guard without real waiting or shared state. Everything
 * here exists to make time-dependent behaviour reproducible: the {@link
 * dev.guard.testkit.ManualClock}, a {@link dev.guard.api.TimeSource} that moves only when a test
 * tells it to, and, as the kit grows, jqwik arbitraries for rules and traffic and AssertJ
 * assertions for guard's values. The classes are public API under the same compatibility and
 * documentation rules as the rest of guard, but they belong on a test class path, never in
 * production code.
 */
@NullMarked
package dev.guard.testkit;

import org.jspecify.annotations.NullMarked;
