/**
 * System protection: engine-wide limits on inbound traffic (QPS, concurrency, average response
 * time, load with the capacity test, CPU usage), checked on every inbound call of every resource.
 */
@NullMarked
package dev.guard.engine.internal.system;

import org.jspecify.annotations.NullMarked;
