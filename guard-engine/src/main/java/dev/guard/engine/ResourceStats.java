package dev.guard.engine;

import java.util.Optional;
import java.util.Set;

/**
 * Live statistics of one resource: the resource-wide figures (all contexts and origins) plus views
 * of its per-origin and per-context nodes. A resource the engine does not know reads as zero.
 *
 * <pre>{@code
 * ResourceStats stats = engine.stats("createOrder");
 * double rate = stats.passQps();
 * long running = stats.concurrency();
 * stats.origin("checkout").ifPresent(o -> report(o.refusedQps()));
 * }</pre>
 */
public interface ResourceStats extends NodeStats {

  /**
   * Returns the resource name.
   *
   * @return the name
   */
  String resource();

  /**
   * Returns the statistics of calls from one origin, if that origin has called.
   *
   * @param origin the caller's origin
   * @return its statistics
   */
  Optional<NodeStats> origin(String origin);

  /**
   * Returns the origins that have called this resource and are measured (at most the engine's
   * {@code maxOriginsPerResource}; calls without an origin have none).
   *
   * @return an immutable snapshot of the origin names, sorted
   */
  Set<String> origins();

  /**
   * Returns the statistics of this resource under one context (entrance) name, if entered there.
   * They are recorded for resources with a rule that measures a context (a ENTRANCE flow rule), or
   * for every resource when the engine is built with {@code contextStatistics(true)}; otherwise
   * they read zero.
   *
   * @param contextName the context name
   * @return its statistics
   */
  Optional<NodeStats> context(String contextName);
}
