/**
 * guard in a Spring MVC application: the request filter, registered automatically, that names each
 * request's resource after its handler's pattern ({@code GET /orders/{id}}), and the {@code
 * guard.web.*} properties it and the WebFlux filter share.
 */
@NullMarked
package dev.guard.spring.boot.web;

import org.jspecify.annotations.NullMarked;
