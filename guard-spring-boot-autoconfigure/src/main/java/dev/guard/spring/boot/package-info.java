/**
 * Spring Boot auto-configuration for guard: one {@link dev.guard.engine.GuardEngine} bean from
 * {@code guard.*} properties, rules from the environment, guarded bean methods, the actuator
 * endpoint, health, metrics, observations and the dashboard.
 */
@NullMarked
package dev.guard.spring.boot;

import org.jspecify.annotations.NullMarked;
