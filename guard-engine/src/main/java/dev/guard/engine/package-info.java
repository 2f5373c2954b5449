/**
 * The engine that decides, call by call, whether a protected resource may be entered: {@link
 * dev.guard.engine.GuardEngine}, its entries, rule registry and statistics views.
 */
@NullMarked
package dev.guard.engine;

import org.jspecify.annotations.NullMarked;
