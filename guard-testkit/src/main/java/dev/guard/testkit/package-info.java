/**
 * Helpers for testing code protected by guard without real waiting or shared state. Everything
 * here exists to make time-dependent behaviour reproducible and needs nothing of guard but its
 * API, so the engine's own tests use it too: the {@link dev.guard.testkit.ManualClock}, a {@link
 * dev.guard.spi.TimeSource} that moves only when a test tells it to; the {@link
 * dev.guard.testkit.FakeSystemStatus} whose CPU usage and load a test sets; the {@link
 * dev.guard.testkit.InMemoryTokenService} for cluster-wide limits in one JVM and the {@link
 * dev.guard.testkit.TokenServiceContract} every token service passes; and the {@link
 * dev.guard.testkit.ArrivalSchedule} of simulated calls. The traffic simulator, the jqwik
 * arbitraries and the AssertJ assertions, which need the engine and the Guard DSL, are in {@code
 * dev.guard.testkit.traffic} (artifact guard-testkit-traffic, which brings this one along). The classes
 * are public API under the same compatibility and documentation rules as the rest of guard, but
 * they belong on a test class path, never in production code.
 */
@NullMarked
package dev.guard.testkit;

import org.jspecify.annotations.NullMarked;
