package dev.guard.redis;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.spi.TimeSource;
import dev.guard.spi.TokenService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The concurrency tokens of cluster flow rules: each is a member {@code instanceId:id:permits} of
 * the flow id's sorted set {@code :c}, scored with the time its lease ends, so a token whose
 * holder dies expires after the rule's {@link ClusterMode#leaseTime()}.
 *
 * <p>Invariants: this instance remembers each token it holds (key, member, and when its lease
 * ends on this instance's clock) until it is released or given back at close; an expired one is
 * forgotten at the next acquisition, so the map holds at most the tokens whose leases still run.
 * Token ids are unique per service and never 0. A release removes the token from the map first,
 * so it is given back at most once. Failures answer {@code FAILED} (acquire) or {@code false}
 * (release) and are counted once, in {@link ScriptCalls}.
 */
final class ConcurrencyLeases {

  /** A concurrency token this instance holds: where it is and until when (local clock). */
  private record Held(String key, String member, long expiresAtNanos) {}

  private final ScriptCalls calls;
  private final FlowKeys keys;
  private final TimeSource clock;
  private final Map<Long, Held> held = new ConcurrentHashMap<>();
  private final AtomicLong nextTokenId = new AtomicLong();

  ConcurrencyLeases(ScriptCalls calls, FlowKeys keys, TimeSource clock) {
    this.calls = calls;
    this.keys = keys;
    this.clock = clock;
  }

  TokenService.Result acquire(FlowRule rule, int permits) {
    ClusterMode mode = rule.cluster();
    if (mode == null || permits <= 0 || calls.closed()) {
      return TokenService.Result.FAILED;
    }
    Connector.Link link = calls.link();
    if (link == null) {
      return TokenService.Result.FAILED;
    }
    FlowKeys.Flow flow = keys.of(mode.flowId());
    long id = nextTokenId.incrementAndGet();
    String member = calls.instanceId() + ":" + id + ":" + permits;
    String[] args = {
      "a", calls.ownLimit(), Double.toString(rule.threshold()), FlowKeys.perInstance(mode), member,
      Integer.toString(permits), Long.toString(mode.leaseTime().toMillis()), calls.instanceId(),
      calls.instanceExpiryMs()
    };
    List<Object> answer = calls.ask(link, flow.acquireKeys(), args);
    if (answer == null) {
      return TokenService.Result.FAILED;
    }
    long code = (Long) answer.get(0);
    if (code == 0) {
      long now = clock.nanoTime();
      held.values().removeIf(h -> now - h.expiresAtNanos() >= 0);
      held.put(id, new Held(flow.acquireKeys()[0], member, now + mode.leaseTime().toNanos()));
      return TokenService.Result.token(id);
    }
    return Answers.refusal(code);
  }

  boolean release(long tokenId) {
    Held token = held.remove(tokenId);
    if (token == null || calls.closed()) {
      return false;
    }
    return giveBack(token);
  }

  /**
   * Gives back every token still held (best effort: none while the service backs off; those not
   * given back expire with their lease). For close, before the service counts as closed.
   */
  void giveBackAll() {
    List<Held> tokens = new ArrayList<>(held.values());
    held.clear();
    if (!calls.availability().backingOff()) {
      for (Held token : tokens) {
        giveBack(token);
      }
    }
  }

  private boolean giveBack(Held token) {
    Connector.Link link = calls.link();
    if (link == null) {
      return false;
    }
    return calls.remove(link, token.key(), token.member());
  }
}
