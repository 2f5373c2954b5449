package dev.guard.engine.internal.registry;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.Rule;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.engine.internal.stat.WindowGeometry;
import dev.guard.engine.internal.system.SystemProtection;
import dev.guard.spi.Cap;
import dev.guard.spi.EngineListener;
import dev.guard.spi.TokenService;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the slots of one engine's chains are given: its time, window, token service, inbound node,
 * engine-wide rules, the resources they may measure, and where breaker transitions and overflows
 * are told.
 */
final class SlotServices implements SlotContext {

  private final EngineClock clock;
  private final EngineConfig config;
  private final Listeners listeners;
  private final Overflows overflows;
  private final SystemProtection system;
  private final StatisticNode inbound;
  private final @Nullable TokenService tokenService;
  private final ResourceRegistry resources;

  SlotServices(EngineParts parts, ResourceRegistry resources) {
    this.clock = parts.clock();
    this.config = parts.config();
    this.listeners = parts.listeners();
    this.overflows = parts.overflows();
    this.system = parts.system();
    this.inbound = parts.inbound();
    this.tokenService = parts.tokenService();
    this.resources = resources;
  }

  @Override
  public long occupyTimeoutMs() {
    return config.occupyTimeoutMs();
  }

  @Override
  public @Nullable TokenService tokenService() {
    return tokenService;
  }

  @Override
  public long nowMs() {
    return clock.nowMs();
  }

  @Override
  public void publish(CircuitBreaker.Transition transition) {
    listeners.tell(EngineListener::onBreakerStateChanged, transition);
  }

  @Override
  public long preciseNowNanos() {
    return clock.preciseNowNanos();
  }

  @Override
  public WindowGeometry secondWindow() {
    return config.secondWindow();
  }

  @Override
  public void sleep(long nanos) throws InterruptedException {
    clock.sleep(nanos);
  }

  @Override
  public @Nullable ClusterNode clusterNodeOf(String resource) {
    ResourceState state = resources.resolve(resource);
    return state.sharesOverflow() ? null : state.cluster(); // never measure the overflow's calls
  }

  @Override
  public StatisticNode inbound() {
    return inbound;
  }

  @Override
  public List<Rule> engineWideRules() {
    return system.chainRules();
  }

  @Override
  public void reportOverflow(Cap cap, String name, long times) {
    overflows.report(cap, name, times);
  }
}
