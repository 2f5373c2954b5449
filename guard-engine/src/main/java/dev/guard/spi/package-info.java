/**
 * Reading the machine's state for system protection: the CPU time and CPU quota of the process's
 * control group (cgroup v2 or v1) or, without one, the operating system's figures, sampled off
 * the call path.
 */
@NullMarked
package dev.guard.spi;

import org.jspecify.annotations.NullMarked;
