/**
 * guard for Spring Cloud Gateway (server WebFlux): the {@code Guard} gateway filter, which enters
 * a resource per route and per API group with per-key arguments taken from the request, guard as
 * the rate limiter of the gateway's own {@code RequestRateLimiter} filter, and their
 * auto-configuration on the engine of guard's Spring Boot starter. See the project's {@code
 * docs/GATEWAY.md}.
 */
@NullMarked
package dev.guard.gateway;

import org.jspecify.annotations.NullMarked;
