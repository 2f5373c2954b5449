/**
 * The engine's extension points: its time source, cluster token service, rule sources and sinks,
 * listeners and system status, with the values they exchange with the engine ({@link
 * dev.guard.spi.Cap}, {@link dev.guard.spi.EngineListener.Refusals}, {@link dev.guard.spi.TokenService.Result}).
 * The system time source and the host's system status (the CPU time and quota of the process's
 * control group, cgroup v2 or v1, or without one the operating system's figures, sampled off the
 * call path) are their default implementations. Nothing here depends on the rest of the engine.
 */
@NullMarked
package dev.guard.spi;

import org.jspecify.annotations.NullMarked;
