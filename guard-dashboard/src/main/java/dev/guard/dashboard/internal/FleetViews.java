package dev.guard.dashboard.internal;

import dev.guard.redis.Eviction;
import dev.guard.redis.RedisFleet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code GET api/fleet}: the fleet of the dashboard's engine as JSON (docs/DASHBOARD.md, "The
 * fleet"), from one {@link RedisFleet#view()} per request. Everything shown comes from other
 * instances' heartbeats and figures, which the fleet has checked; the pages put it into the
 * document as text only.
 */
final class FleetViews {

  private final RedisFleet fleet;

  FleetViews(RedisFleet fleet) {
    this.fleet = fleet;
  }

  /** What the overview names the fleet by. */
  String name() {
    return fleet.toString();
  }

  Map<String, @Nullable Object> view() {
    RedisFleet.View view = fleet.view();
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    out.put("timeMs", view.timeMs());
    out.put("self", view.self());
    out.put("fleet", fleet.toString());
    out.put("problem", view.problem());
    out.put("rulesAgree", view.rulesAgree());
    out.put("skipped", view.skipped());
    Eviction eviction = view.eviction();
    Map<String, Object> evicts = new LinkedHashMap<>();
    evicts.put("risk", eviction.risk().name());
    evicts.put("policy", eviction.policy());
    evicts.put("maxmemoryBytes", eviction.maxmemoryBytes());
    evicts.put("evictedKeys", eviction.evictedKeys());
    evicts.put("restoredStates", eviction.restoredStates());
    evicts.put("detail", eviction.detail());
    out.put("eviction", evicts);
    List<Map<String, Object>> instances = new ArrayList<>();
    for (RedisFleet.Instance i : view.instances()) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("id", i.id());
      one.put("name", i.name());
      one.put("host", i.host());
      one.put("pid", i.pid());
      one.put("guardVersion", i.guardVersion());
      one.put("alive", i.alive());
      one.put("lastSeenMs", i.lastSeenMs());
      one.put("startedMs", i.startedMs());
      one.put("rules", i.rules());
      one.put("ruleRevision", i.ruleRevision());
      one.put("rulesAppliedAtMs", i.rulesAppliedAtMs());
      one.put("ruleSource", i.ruleSource());
      one.put("agrees", i.agrees());
      one.put("self", i.self());
      instances.add(one);
    }
    out.put("instances", instances);
    List<Map<String, Object>> resources = new ArrayList<>();
    for (RedisFleet.Resource r : view.resources()) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("name", r.name());
      one.put("total", figures(r.total()));
      List<Map<String, Object>> seconds = new ArrayList<>();
      for (RedisFleet.Second second : r.seconds()) {
        Map<String, Object> point = new LinkedHashMap<>();
        point.put("t", second.epochSecond());
        point.putAll(figures(second.figures()));
        seconds.add(point);
      }
      one.put("seconds", seconds);
      Map<String, Object> byInstance = new LinkedHashMap<>();
      r.byInstance().forEach((id, figures) -> byInstance.put(id, figures(figures)));
      one.put("byInstance", byInstance);
      resources.add(one);
    }
    out.put("resources", resources);
    return out;
  }

  private static Map<String, Object> figures(RedisFleet.Figures f) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("pass", f.pass());
    out.put("refused", f.refused());
    out.put("success", f.success());
    out.put("exception", f.exception());
    out.put("averageRtMs", f.averageRtMs());
    return out;
  }
}
