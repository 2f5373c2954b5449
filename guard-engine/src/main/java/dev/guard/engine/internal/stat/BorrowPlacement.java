package dev.guard.engine.internal.stat;

/**
 * Where a borrowed pass was counted when it was registered ({@link OccupiableBucketRing#addWaiting}),
 * so that giving it back ({@link OccupiableBucketRing#cancelWaiting}) removes it from there and
 * nowhere else.
 */
public enum BorrowPlacement {

  /**
   * Waiting in the future ring; it arrives in the main ring when its bucket starts. A cancel takes
   * it from whichever of the two holds it at that moment.
   */
  FUTURE_BUCKET,

  /** Its bucket had already started: counted in that main bucket directly, as an arrived pass. */
  STARTED_BUCKET,

  /** Counted in no bucket: the borrowed bucket had left the ring (a caller far behind). */
  NOWHERE
}
