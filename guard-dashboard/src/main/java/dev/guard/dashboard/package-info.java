/**
 * The dashboard's public entry points: {@link dev.guard.dashboard.GuardDashboard} (configure and
 * serve on the JDK's HTTP server), {@link dev.guard.dashboard.DashboardServer} (a running server)
 * and {@link dev.guard.dashboard.GuardDashboardServlet} (the same dashboard in a servlet
 * container). docs/DASHBOARD.md describes the pages, the JSON API and the security defaults.
 */
@NullMarked
package dev.guard.dashboard;

import org.jspecify.annotations.NullMarked;
