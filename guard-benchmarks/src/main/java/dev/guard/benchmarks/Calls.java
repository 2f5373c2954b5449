package dev.guard.benchmarks;

import java.util.function.Supplier;

/**
 * The trivial business call that every guarded benchmark wraps, and the value a benchmark returns
 * when the library refused the call.
 *
 * <p>Every guarded call returns either {@link #ADMITTED} (the body ran) or {@link #REFUSED} (the
 * library turned the call away and the benchmark's fallback ran), so the sanity checks can tell the
 * two apart through exactly the code path that is measured.
 */
final class Calls {
  /** What the body returns. */
  static final Object ADMITTED = new Marker("admitted");

  /** What a benchmark returns when the call was refused. */
  static final Object REFUSED = new Marker("refused");

  /** The business code: does nothing but return {@link #ADMITTED}. */
  static final Supplier<Object> BODY = () -> ADMITTED;

  /** The number of a peer's calls allowed per second when a scenario wants it never to refuse. */
  static final int HUGE_RATE = 1_000_000_000;

  private Calls() {}

  private record Marker(String name) {}
}
