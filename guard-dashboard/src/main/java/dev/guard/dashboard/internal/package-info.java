/**
 * The dashboard's request-handling core, shared by both servers: a request in, a response out
 * ({@link dev.guard.dashboard.internal.DashboardCore}), with authentication ({@link
 * dev.guard.dashboard.internal.Access}), the JSON views of the engine and the static pages. Not
 * exported.
 */
@NullMarked
package dev.guard.dashboard.internal;

import org.jspecify.annotations.NullMarked;
