/** Adaptive concurrency limits: a limit on calls in flight that moves with their latency and failures. */
@NullMarked
package dev.guard.engine.internal.adaptive;

import org.jspecify.annotations.NullMarked;
