/**
 * guard on Spring's HTTP clients in a Spring Boot application: with {@code
 * guard.web.client.enabled=true} and guard-spring-web-client on the class path, the builders Boot
 * provides ({@code RestClient.Builder}, {@code RestTemplateBuilder}, {@code WebClient.Builder})
 * guard every call of the clients they build, under the {@code guard.web.client.*} properties.
 */
@NullMarked
package dev.guard.spring.boot.client;

import org.jspecify.annotations.NullMarked;
