/**
 * guard in a WebFlux application: the {@code WebFilter}, registered automatically, that names each
 * request's resource after its route's pattern ({@code GET /orders/{id}}), configured by the same
 * {@code guard.web.*} properties as the Spring MVC filter.
 */
@NullMarked
package dev.guard.spring.boot.webflux;

import org.jspecify.annotations.NullMarked;
