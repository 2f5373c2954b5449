/**
 * Traffic through guards, for tests: the {@link dev.guard.testkit.traffic.TrafficSimulator}, which
 * plays an {@link dev.guard.testkit.ArrivalSchedule} of calls through a guard on a {@link
 * dev.guard.testkit.ManualClock} and reports passes and refusals per window ({@link
 * dev.guard.testkit.traffic.TrafficSimulator.Report}); jqwik arbitraries for rules, guards, schedules and
 * clock starts ({@link dev.guard.testkit.traffic.FlowArbitraries}); and AssertJ assertions for
 * statistics and reports ({@link dev.guard.testkit.traffic.GuardAssertions}). They need the engine
 * and the Guard DSL; the clock and the fakes below them are in {@code dev.guard.testkit}
 * (guard-testkit), which this module brings along. Public API under the same rules as the
 * rest of guard, for test class paths only.
 */
@NullMarked
package dev.guard.testkit.traffic;

import org.jspecify.annotations.NullMarked;
