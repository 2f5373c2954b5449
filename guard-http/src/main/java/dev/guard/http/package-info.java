/**
 * Protects HTTP endpoints and outbound HTTP calls with a {@link dev.guard.engine.GuardEngine}.
 *
 * <p>Inbound: {@link dev.guard.http.HttpInbound} holds the settings (resource naming, caller
 * origin, entrance, refusal response); {@link dev.guard.http.GuardServletFilter} (Jakarta Servlet
 * 6) and {@link dev.guard.http.GuardHttpServerFilter} (the JDK's {@code com.sun.net.httpserver})
 * apply them, each through the one admission {@link dev.guard.http.InboundGate#admit}, which
 * adapters of other servers use too. Outbound: {@link dev.guard.http.HttpOutbound} decorates a
 * {@link java.net.http.HttpClient} into a {@link dev.guard.http.GuardedHttpClient}. The exact
 * behaviour is described in the project's {@code docs/HTTP.md}.
 */
@NullMarked
package dev.guard.http;

import org.jspecify.annotations.NullMarked;
