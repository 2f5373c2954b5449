/**
 * Helpers for testing code protected by guard without real waiting or shared state. Everything
 * here exists to make time-dependent behaviour reproducible: the {@link
 * dev.guard.testkit.ManualClock}, a {@link dev.guard.spi.TimeSource} that moves only when a test
 * tells it to; the {@link dev.guard.testkit.TrafficSimulator}, which plays an {@link
 * dev.guard.testkit.ArrivalSchedule} of calls through a guard on that clock and reports passes and
 * refusals per window; jqwik arbitraries for rules, guards, schedules and clock starts ({@link
 * dev.guard.testkit.FlowArbitraries}); and AssertJ assertions for statistics and reports ({@link
 * dev.guard.testkit.GuardAssertions}). The classes are public API under the same compatibility and
 * documentation rules as the rest of guard, but they belong on a test class path, never in
 * production code.
 */
@NullMarked
package dev.guard.testkit;

import org.jspecify.annotations.NullMarked;
