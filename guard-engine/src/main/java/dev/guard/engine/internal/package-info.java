/**
 * The engine's wiring: its parts built and joined ({@code EngineCore}), and the recorder thread
 * that collects the history of engines on the system clock. Not exported.
 */
@NullMarked
package dev.guard.engine.internal;

import org.jspecify.annotations.NullMarked;
