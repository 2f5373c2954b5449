/**
 * Protects the calls of Spring's HTTP clients with a {@link dev.guard.engine.GuardEngine}: {@link
 * dev.guard.spring.client.GuardClientInterceptor} for {@code RestClient} and {@code RestTemplate},
 * {@link dev.guard.spring.client.GuardExchangeFilter} for {@code WebClient}. Both are adapters of
 * {@link dev.guard.http.OutboundGate}: resources are named, refusals raised and calls finished as
 * for {@link dev.guard.http.GuardedHttpClient}. The exact behaviour is described in the project's
 * {@code docs/SPRING-CLIENTS.md}.
 */
@NullMarked
package dev.guard.spring.client;

import org.jspecify.annotations.NullMarked;
