package dev.guard.engine;

import java.util.Optional;
import java.util.Set;

/**
 * Live statistics of one node, read at the engine's current time: a resource ({@code
 * GuardEngine.stats(resource)}, which also breaks down by origin and by context), the inbound
 * traffic, an entrance, or one origin or context of a resource. A resource the engine does not
 * know reads as zero. Rates are per second over the
 * engine's second-level window (2 × 500 ms by default); totals cover the minute-level window (60
 * × 1 s). Every read is a fresh computation; the object itself holds no snapshot.
 */
public interface NodeStats {

  /**
   * Admitted calls per second.
   *
   * @return the pass rate
   */
  double passQps();

  /**
   * Refused calls per second.
   *
   * @return the refused rate
   */
  double refusedQps();

  /**
   * Completed calls per second (including calls that failed with a business error).
   *
   * @return the completion rate
   */
  double successQps();

  /**
   * Calls per second that completed with a recorded business error.
   *
   * @return the exception rate
   */
  double exceptionQps();

  /**
   * Mean response time in milliseconds of the completed calls in the window; 0 when none.
   *
   * @return the average response time
   */
  double averageRt();

  /**
   * Shortest response time in milliseconds in the window (at least 1; 5000 when none).
   *
   * @return the minimum response time
   */
  double minRt();

  /**
   * Passes in the previous whole second.
   *
   * @return the previous second's pass count
   */
  double previousPassQps();

  /**
   * Calls running right now.
   *
   * @return the concurrency gauge
   */
  long concurrency();

  /**
   * Admitted calls over the last minute.
   *
   * @return the minute pass total
   */
  long totalPass();

  /**
   * Admitted plus refused calls over the last minute.
   *
   * @return the minute request total
   */
  long totalRequest();

  /**
   * Refused calls over the last minute.
   *
   * @return the minute refused total
   */
  long totalRefused();

  /**
   * Calls with a business error over the last minute.
   *
   * @return the minute exception total
   */
  long totalException();

  /**
   * Returns the name of the resource these are the statistics of: present for {@code
   * GuardEngine.stats(resource)}, empty for the inbound, entrance, origin and context views.
   *
   * @return the resource name, if these are a resource's statistics
   */
  default Optional<String> resource() {
    return Optional.empty();
  }

  /**
   * Returns the statistics of a resource's calls from one origin, if that origin has called; empty
   * for views that are not a resource's.
   *
   * <pre>{@code
   * engine.stats("createOrder").origin("checkout").ifPresent(o -> report(o.refusedQps()));
   * }</pre>
   *
   * @param origin the caller's origin
   * @return its statistics
   */
  default Optional<NodeStats> origin(String origin) {
    return Optional.empty();
  }

  /**
   * Returns the origins that have called the resource and are measured (at most the engine's
   * {@code maxOriginsPerResource}; calls without an origin have none); empty for views that are
   * not a resource's.
   *
   * @return an immutable snapshot of the origin names, sorted
   */
  default Set<String> origins() {
    return Set.of();
  }

  /**
   * Returns the statistics of the resource under one context (entrance) name, if entered there;
   * empty for views that are not a resource's. They are recorded for resources with a rule that
   * measures a context (an ENTRANCE flow rule), or for every resource when the engine is built
   * with {@code contextStatistics(true)}; otherwise they read zero.
   *
   * @param entrance the entrance's name
   * @return its statistics
   */
  default Optional<NodeStats> context(String entrance) {
    return Optional.empty();
  }
}
