package dev.guard.api.rule;

import dev.guard.api.internal.Checks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * An immutable origin allow or deny list for one resource: calls whose caller origin is listed
 * are the only ones admitted ({@link OriginRule.Policy#ALLOW}) or are refused ({@link
 * OriginRule.Policy#DENY}). A call without an origin (the empty origin) always passes. A resource
 * has at most one origin rule: an engine refuses to load a second one.
 *
 * <pre>{@code
 * OriginRule admins = OriginRule.allow("admin", "ops-console", "billing");
 * OriginRule noScrapers = OriginRule.deny("search", "scraper");
 * }</pre>
 *
 * <p>Each given origin may itself be a comma-separated list, as rule files write them: {@code
 * "appA, appB"} lists {@code appA} and {@code appB}. Names are trimmed, and a blank name is
 * invalid.
 *
 * @param resource the protected resource; not blank
 * @param policy whether the listed origins are admitted or refused
 * @param origins the listed origins, trimmed, not empty, in the order given
 */
public record OriginRule(String resource, OriginRule.Policy policy, Set<String> origins)
    implements Rule {

  /**
   * Validates and normalises the fields: splits comma-separated names and trims every name.
   *
   * @param resource the protected resource
   * @param policy whether the listed origins are admitted or refused
   * @param origins the listed origins; each may be a comma-separated list
   * @throws IllegalArgumentException if the resource or a name is blank, or no origin is listed
   * @throws NullPointerException if a field or a name is null
   */
  public OriginRule {
    resource = Checks.notBlank("resource", resource);
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(origins, "origins");
    origins = names(new ArrayList<>(origins));
  }

  /**
   * Creates an allow list: only the listed origins may call the resource (calls without an origin
   * pass too).
   *
   * @param resource the protected resource
   * @param origins the admitted origins; each may be a comma-separated list
   * @return the rule
   * @throws IllegalArgumentException if no origin is given or a name is blank
   */
  public static OriginRule allow(String resource, String... origins) {
    return new OriginRule(resource, OriginRule.Policy.ALLOW, names(List.of(origins)));
  }

  /**
   * Creates a deny list: the listed origins may not call the resource.
   *
   * @param resource the protected resource
   * @param origins the refused origins; each may be a comma-separated list
   * @return the rule
   * @throws IllegalArgumentException if no origin is given or a name is blank
   */
  public static OriginRule deny(String resource, String... origins) {
    return new OriginRule(resource, OriginRule.Policy.DENY, names(List.of(origins)));
  }

  /**
   * Tells whether a call from {@code origin} is admitted: an empty origin always is; otherwise an
   * allow list admits listed origins and a deny list the others.
   *
   * @param origin the caller's origin; empty when unknown
   * @return whether the call passes this rule
   */
  public boolean admits(String origin) {
    return origin.isEmpty() || origins.contains(origin) == (policy == OriginRule.Policy.ALLOW);
  }

  private static Set<String> names(List<String> given) {
    Set<String> names = new LinkedHashSet<>();
    for (String entry : given) {
      Objects.requireNonNull(entry, "origins");
      for (String name : entry.split(",", -1)) {
        if (name.isBlank()) {
          throw Checks.invalid("origins", "'" + entry + "'", "must not contain a blank name");
        }
        names.add(name.strip());
      }
    }
    if (names.isEmpty()) {
      throw Checks.invalid("origins", given, "must list at least one origin");
    }
    return Collections.unmodifiableSet(names);
  }

  /** Whether an {@link OriginRule} lists the origins it admits or the ones it refuses. */
  public enum Policy {
    /** Only the listed origins are admitted (an allow list). */
    ALLOW,
    /** The listed origins are refused (a deny list). */
    DENY
  }
}
