package dev.guard.spi;

import dev.guard.api.RefusalKind;
import java.util.Map;

/**
 * The refusals of one resource during one whole second, as the refusal log reports them ({@link
 * EngineListener#onRefusals}): how many permits each kind of protection refused and how many each
 * calling origin had refused. Kinds and origins are counted separately (not as pairs); origins are
 * those the resource measures (its origin cap applies), and calls without an origin are not in
 * {@code byOrigin}. docs/BEHAVIOUR.md, "Refusal log", has the rules.
 *
 * @param resource the resource
 * @param secondMs the second's start in engine time (milliseconds since the engine was built)
 * @param refused refused permits in the second, all kinds together
 * @param byKind refused permits per kind; kinds that refused nothing are left out
 * @param byOrigin refused permits per calling origin; origins that had nothing refused are left out
 */
public record RefusalLogEntry(
    String resource, long secondMs, long refused, Map<RefusalKind, Long> byKind,
    Map<String, Long> byOrigin) {

  /**
   * Copies the maps.
   *
   * @param resource the resource
   * @param secondMs the second's start
   * @param refused refused permits
   * @param byKind refused permits per kind
   * @param byOrigin refused permits per origin
   */
  public RefusalLogEntry {
    byKind = Map.copyOf(byKind);
    byOrigin = Map.copyOf(byOrigin);
  }
}
