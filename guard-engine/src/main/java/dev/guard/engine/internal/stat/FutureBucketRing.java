package dev.guard.engine.internal.stat;

/**
 * The "future" half of an {@link OccupiableBucketRing}: a ring with the same geometry whose
 * buckets hold {@link MetricEvent#PASS} counts that prioritized calls borrowed from buckets that
 * have not started yet.
 *
 * <p>Deprecation is inverted (docs/BEHAVIOUR.md, "Flow rules"): a bucket no longer counts once it has started, i.e.
 * it is deprecated at {@code t} iff {@code t >= start}. Sums at {@code t} therefore cover exactly
 * the buckets that start strictly after {@code t}: the passes still waiting to arrive.
 */
public final class FutureBucketRing extends BucketRing {

  /**
   * Creates an empty future ring.
   *
   * @param geometry the geometry of the main ring it serves
   */
  public FutureBucketRing(WindowGeometry geometry) {
    super(geometry);
  }

  @Override
  protected boolean isDeprecated(long nowMs, long startMs) {
    return nowMs >= startMs;
  }
}
