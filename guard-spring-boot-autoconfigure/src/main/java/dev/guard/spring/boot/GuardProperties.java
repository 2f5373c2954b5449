package dev.guard.spring.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code guard.*} properties of a Spring Boot application.
 *
 * @param enabled whether the starter configures guard at all
 */
@ConfigurationProperties("guard")
public record GuardProperties(@DefaultValue("true") boolean enabled) {}
