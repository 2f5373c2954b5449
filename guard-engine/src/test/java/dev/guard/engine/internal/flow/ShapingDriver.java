package dev.guard.engine.internal.flow;

import java.util.ArrayList;
import java.util.List;

/**
 * Drives a controller in engine time without real waiting: each decision is made at a given
 * millisecond, and an admitted call is recorded as a pass in the fake metrics at its admission
 * time (decision time + wait), as the statistics slot would after the wait.
 */
final class ShapingDriver {

  static final long NANOS_PER_MS = 1_000_000L;

  final TrafficShapingController controller;
  final FakeFlowMetrics metrics = new FakeFlowMetrics();

  ShapingDriver(TrafficShapingController controller) {
    this.controller = controller;
  }

  /** Decides one call of one permit at {@code nowMs}; records the pass if admitted. */
  long call(long nowMs) {
    return call(nowMs * NANOS_PER_MS, 1);
  }

  /** Decides one call at {@code nowNanos}; records the pass if admitted. */
  long call(long nowNanos, int permits) {
    long decision = controller.decide(metrics, permits, false, nowNanos, nowNanos / NANOS_PER_MS);
    if (Decision.admits(decision)) {
      long admittedNanos = nowNanos + Decision.waitNanos(decision);
      metrics.recordPass(admittedNanos / NANOS_PER_MS, permits);
    }
    return decision;
  }

  /** Decides {@code n} simultaneous one-permit calls at {@code nowMs}. */
  List<Long> burst(long nowMs, int n) {
    List<Long> decisions = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      decisions.add(call(nowMs));
    }
    return decisions;
  }

  /** Decides {@code n} simultaneous calls at {@code nowMs}; returns how many were admitted. */
  int admitted(long nowMs, int n) {
    int admitted = 0;
    for (int i = 0; i < n; i++) {
      if (Decision.admits(call(nowMs))) {
        admitted++;
      }
    }
    return admitted;
  }

  /**
   * Sends {@code n} simultaneous calls at the start (plus {@code phaseMs}) of each of {@code
   * seconds} seconds from {@code startMs}; returns the admitted count per second.
   */
  List<Integer> perSecond(long startMs, long phaseMs, int seconds, int n) {
    List<Integer> counts = new ArrayList<>(seconds);
    for (int k = 0; k < seconds; k++) {
      counts.add(admitted(startMs + k * 1000L + phaseMs, n));
    }
    return counts;
  }
}
