package dev.guard.gateway;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The API groups: named sets of path patterns that may span routes, each a resource of its own
 * (docs/GATEWAY.md, "API groups"). A request whose path matches any pattern of a group enters
 * that group's resource, in the order the groups are configured.
 */
final class ApiGroups {

  /** No groups. */
  static final ApiGroups NONE = new ApiGroups(new String[0], List.of());

  private final String[] names;
  private final List<List<PathPattern>> patterns;

  private ApiGroups(String[] names, List<List<PathPattern>> patterns) {
    this.names = names;
    this.patterns = patterns;
  }

  /**
   * Parses the groups.
   *
   * @param property the property they come from, for messages
   * @param groups group name to its path patterns, in order
   * @throws IllegalArgumentException naming the group if its name is blank, it has no pattern or
   *     a pattern does not parse
   */
  static ApiGroups of(String property, Map<String, List<String>> groups) {
    Map<String, List<String>> ordered = new LinkedHashMap<>(groups);
    List<List<PathPattern>> parsed = new ArrayList<>(ordered.size());
    for (Map.Entry<String, List<String>> group : ordered.entrySet()) {
      String at = property + "." + group.getKey();
      if (group.getKey().isBlank()) {
        throw new IllegalArgumentException(property + ": a group name must not be blank");
      }
      if (group.getValue().isEmpty()) {
        throw new IllegalArgumentException(at + ": must hold at least one path pattern, was []");
      }
      List<PathPattern> own = new ArrayList<>(group.getValue().size());
      for (String pattern : group.getValue()) {
        try {
          own.add(PathPatternParser.defaultInstance.parse(pattern.trim()));
        } catch (RuntimeException bad) {
          throw new IllegalArgumentException(at + ": must hold path patterns, was '" + pattern
              + "': " + bad.getMessage(), bad);
        }
      }
      parsed.add(List.copyOf(own));
    }
    return new ApiGroups(ordered.keySet().toArray(String[]::new), List.copyOf(parsed));
  }

  /** The groups whose patterns match the path, in configuration order; empty for none. */
  List<String> matching(PathContainer path) {
    List<String> found = List.of();
    for (int i = 0; i < names.length; i++) {
      if (matchesAny(patterns.get(i), path)) {
        if (found.isEmpty()) {
          found = new ArrayList<>(2);
        }
        found.add(names[i]);
      }
    }
    return found;
  }

  private static boolean matchesAny(List<PathPattern> own, PathContainer path) {
    for (int i = 0; i < own.size(); i++) {
      if (own.get(i).matches(path)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "ApiGroups" + List.of(names);
  }
}
