/**
 * What the engine reads from the machine it runs on: the system time source (the JVM's monotonic
 * clock, with a coarse reading kept fresh by a daemon ticker only while it is read) and the host's
 * system status (CPU usage and load from the process's control group, cgroup v2 or v1, or without
 * one from the operating system, sampled off the call path). They are the default implementations
 * of the time source and system status interfaces in guard-api, reached through {@code
 * GuardEngine.systemTime()} and {@code GuardEngine.hostStatus()}. Nothing here depends on the rest
 * of the engine.
 */
@NullMarked
package dev.guard.engine.internal.host;

import org.jspecify.annotations.NullMarked;
