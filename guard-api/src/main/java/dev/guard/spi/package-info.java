/**
 * The engine's extension points: its time source, cluster token service, rule sources and sinks,
 * listeners and system status, with the values they exchange with the engine ({@link
 * dev.guard.spi.Cap}, {@link dev.guard.spi.EngineListener.Refusals}, {@link
 * dev.guard.spi.TokenService.Result}).
 * The interfaces live in guard-api, so that implementations (a test kit's manual clock, a token
 * service on Redis) need no engine; their default implementations, the system time source and the
 * host's system status (the CPU time and quota of the process's control group, cgroup v2 or v1, or
 * without one the operating system's figures, sampled off the call path), come with guard-engine
 * ({@code GuardEngine.systemTime()}, {@code GuardEngine.hostStatus()}).
 */
@NullMarked
package dev.guard.spi;

import org.jspecify.annotations.NullMarked;
