package dev.guard.spring.boot;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What guard's modules read by resource name, told to Spring's AOT processing so that a native
 * image keeps it: guard-redis's Lua scripts (the prelude and each script), the dashboard's static
 * files and the JSON schema of the rule format. A pattern for an absent module's files matches
 * nothing and costs nothing. guard reads no class of its own by reflection on these paths (its
 * JSON goes through Jackson's tree model); the {@link Guarded} fallbacks, found by name, are
 * registered per bean by {@link GuardedFallbackHints}.
 */
final class GuardRuntimeHints implements RuntimeHintsRegistrar {

  /** The resource patterns guard reads, each relative to the class path's root. */
  static final String[] RESOURCES = {
      "dev/guard/redis/*.lua",
      "dev/guard/dashboard/web/*",
      "dev/guard/rules/rules.schema.json"
  };

  @Override
  public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
    for (String pattern : RESOURCES) {
      hints.resources().registerPattern(pattern);
    }
  }
}
