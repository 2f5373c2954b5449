/**
 * The dashboard's one entry point, {@link dev.guard.dashboard.GuardDashboard}: made for an engine
 * ({@code GuardDashboard.of(engine)}, or {@code builder(engine)} for options), served on the JDK's
 * HTTP server ({@code start()}, a running {@link dev.guard.dashboard.GuardDashboard.Server}) or in
 * a servlet container ({@code servlet()}). docs/DASHBOARD.md describes the pages, the JSON API and the security defaults.
 */
@NullMarked
package dev.guard.dashboard;

import org.jspecify.annotations.NullMarked;
