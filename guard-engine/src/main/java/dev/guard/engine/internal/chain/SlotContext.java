package dev.guard.engine.internal.chain;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.Rule;
import dev.guard.spi.Cap;
import dev.guard.spi.TokenService;
import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The engine services a slot may use: settings, waiting and looking up other resources. */
public interface SlotContext {

  /**
   * The longest wait of a prioritized call borrowing from a future bucket, in milliseconds.
   *
   * @return the occupy timeout
   */
  long occupyTimeoutMs();

  /**
   * The service that decides cluster-mode flow rules, if the engine has one.
   *
   * @return the token service or null
   */
  @Nullable TokenService tokenService();

  /**
   * Engine time in milliseconds, from the clock reading that statistics and most decisions use;
   * for reads made outside a call (an operator's control, a view).
   *
   * @return engine time in milliseconds
   */
  long nowMs();

  /**
   * Reports a circuit breaker's state change to the engine's listeners, on the calling thread.
   *
   * @param transition the change
   */
  void publish(CircuitBreaker.Transition transition);

  /**
   * A precise reading of engine time, for decisions that need nanoseconds (pacing).
   *
   * @return engine time in nanoseconds
   */
  long preciseNowNanos();

  /**
   * The geometry of every node's second-level window.
   *
   * @return the second window
   */
  WindowGeometry secondWindow();

  /**
   * Waits through the engine's time source.
   *
   * @param nanos how long
   * @throws InterruptedException if interrupted while waiting
   */
  void sleep(long nanos) throws InterruptedException;

  /**
   * The cluster node of another resource (a RELATE flow rule's related resource). A resource the
   * engine does not track yet is tracked from now on, with no calls, as if it had been entered.
   *
   * @param resource the resource name
   * @return its cluster node, or null when the resource cap is full and the resource is untracked
   */
  @Nullable ClusterNode clusterNodeOf(String resource);

  /**
   * The engine's inbound node: every {@link dev.guard.api.EntryType#IN} call of every resource.
   *
   * @return the inbound node
   */
  StatisticNode inbound();

  /**
   * The rules of the {@linkplain SlotKind#engineWide() engine-wide} kinds in force: what every
   * chain compiles besides the resource's own rules.
   *
   * @return the engine-wide rules; empty when there are none
   */
  List<Rule> engineWideRules();

  /**
   * Counts overflows of a bounded collection that a slot owns and tells the engine's listeners,
   * once per overflow (see {@link Cap}).
   *
   * @param cap the full collection
   * @param name the resource the collection belongs to
   * @param times how many overflows happened; nothing happens for 0
   */
  void reportOverflow(Cap cap, String name, long times);
}
