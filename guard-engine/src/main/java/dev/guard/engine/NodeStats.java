package dev.guard.engine;

/**
 * Live statistics of one node, read at the engine's current time. Rates are per second over the
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
}
