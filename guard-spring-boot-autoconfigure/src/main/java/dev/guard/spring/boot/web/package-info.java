/**
 * guard in a Spring MVC application: the handler interceptor, registered automatically, that
 * admits each request into the resource named after its handler's pattern ({@code GET
 * /orders/{id}}), the exception resolver that answers a refusal escaping a controller, and the
 * {@code guard.web.*} properties they and the WebFlux filter share.
 */
@NullMarked
package dev.guard.spring.boot.web;

import org.jspecify.annotations.NullMarked;
