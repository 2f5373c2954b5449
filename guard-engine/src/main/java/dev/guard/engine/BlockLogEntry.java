package dev.guard.engine;

import java.util.Map;

/**
 * The refusals of one resource during one whole second, as the block log reports them ({@link
 * EngineListener#onBlocks}): how many permits each kind of protection refused and how many each
 * calling origin had refused. Kinds and origins are counted separately (not as pairs); origins are
 * those the resource measures (its origin cap applies), and calls without an origin are not in
 * {@code byOrigin}. docs/BEHAVIOUR.md, "Block log", has the rules.
 *
 * @param resource the resource
 * @param secondMs the second's start in engine time (milliseconds since the engine was built)
 * @param blocked refused permits in the second, all kinds together
 * @param byKind refused permits per kind; kinds that refused nothing are left out
 * @param byOrigin refused permits per calling origin; origins that had nothing refused are left out
 */
public record BlockLogEntry(
    String resource, long secondMs, long blocked, Map<BlockKind, Long> byKind,
    Map<String, Long> byOrigin) {

  /**
   * Copies the maps.
   *
   * @param resource the resource
   * @param secondMs the second's start
   * @param blocked refused permits
   * @param byKind refused permits per kind
   * @param byOrigin refused permits per origin
   */
  public BlockLogEntry {
    byKind = Map.copyOf(byKind);
    byOrigin = Map.copyOf(byOrigin);
  }
}
