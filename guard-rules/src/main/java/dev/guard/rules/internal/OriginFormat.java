package dev.guard.rules.internal;

import dev.guard.api.internal.RuleLimits;
import dev.guard.api.rule.OriginRule;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Origin rules, named as the DSL names them ({@code allowOrigins}, {@code
 * denyOrigins}):
 *
 * <pre>{@code
 * {"resource": "admin", "allowOrigins": ["ops-console", "billing"]}
 * {"resource": "search", "denyOrigins": ["scraper"]}
 * }</pre>
 *
 * <p>Exactly one of the two lists. Names are trimmed, and an entry may be a comma-separated list,
 * as in the DSL. An engine takes at most one origin rule per resource.
 */
final class OriginFormat implements KindFormat<OriginRule> {

  private static final Map<String, String> PATHS = Map.of("resource", "resource");

  @Override
  public int maxPerResource() {
    return RuleLimits.MAX_ORIGIN_RULES_PER_RESOURCE;
  }

  @Override
  public String overLimitHint() {
    return ": list every origin in that one rule";
  }

  @Override
  public String key() {
    return "origins";
  }

  @Override
  public String ruleName() {
    return "origin";
  }

  @Override
  public Class<OriginRule> type() {
    return OriginRule.class;
  }

  @Override
  public @Nullable OriginRule read(Fields fields) {
    String resource = fields.string("resource");
    fields.require("resource", resource);
    boolean resourceValid = resource != null
        && fields.check("resource", () -> OriginRule.allow(resource, "origin"));
    List<String> allow = fields.strings("allowOrigins");
    List<String> deny = fields.strings("denyOrigins");
    fields.finish();
    if (allow != null && deny != null) {
      fields.error("denyOrigins", "must not be given with allowOrigins: a rule allows or denies");
      return null;
    }
    List<String> origins = allow != null ? allow : deny;
    if (origins == null) {
      if (!fields.has("allowOrigins") && !fields.has("denyOrigins")) {
        fields.error("needs \"allowOrigins\" or \"denyOrigins\"");
      }
      return null;
    }
    OriginRule.Policy strategy = allow != null ? OriginRule.Policy.ALLOW : OriginRule.Policy.DENY;
    String listField = allow != null ? "allowOrigins" : "denyOrigins";
    boolean originsValid = fields.check(listField,
        () -> new OriginRule("resource", strategy, Set.copyOf(origins)));
    if (!resourceValid || !originsValid || resource == null) {
      return null;
    }
    return fields.build(
        () -> new OriginRule(resource, strategy, new LinkedHashSet<>(origins)), PATHS);
  }

  @Override
  public void write(OriginRule rule, ObjectNode out) {
    out.put("resource", rule.resource());
    ArrayNode origins = out.putArray(
        rule.policy() == OriginRule.Policy.ALLOW ? "allowOrigins" : "denyOrigins");
    rule.origins().forEach(origins::add);
  }
}
