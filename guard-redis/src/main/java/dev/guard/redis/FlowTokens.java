package dev.guard.redis;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.spi.TimeSource;
import dev.guard.spi.TokenService;
import io.lettuce.core.ScriptOutputType;
import java.util.List;

/**
 * The flow tokens of cluster flow rules: one tokens-script call per request over the flow id's
 * window, or in leased mode a permit spent from the running lease without a round trip.
 *
 * <p>Invariants: a grant of exact mode carries an id ({@link Answers}) naming the window time its
 * permits were counted at, and a give-back with that id returns them to exactly that bucket of
 * every window (one script call); a grant spent from a lease has id 0 and goes back to the lease,
 * never to Redis. Prioritized requests always ask Redis. A lease's deadline is the time the
 * request was sent plus the time the server said was left in the bucket ({@link Leases}), so
 * every leased permit is spent inside the bucket that counted it. Failures answer {@code FAILED}
 * and are counted once, in {@link ScriptCalls}.
 */
final class FlowTokens {

  private final ScriptCalls calls;
  private final FlowKeys keys;
  private final TimeSource clock;

  FlowTokens(ScriptCalls calls, FlowKeys keys, TimeSource clock) {
    this.calls = calls;
    this.keys = keys;
    this.clock = clock;
  }

  TokenService.Result request(FlowRule rule, int permits, boolean prioritized) {
    ClusterMode mode = rule.cluster();
    if (mode == null || permits <= 0 || calls.closed()) {
      return TokenService.Result.FAILED;
    }
    FlowKeys.Flow flow = keys.of(mode.flowId());
    Leases leases = prioritized ? null : flow.leases();
    if (leases != null && leases.tryTake(permits, clock.nanoTime())) {
      return TokenService.Result.OK;
    }
    Connector.Link link = calls.link();
    if (link == null) {
      return TokenService.Result.FAILED;
    }
    int wanted = leases == null ? permits : leases.wanted(permits);
    String[] args = {
      "t", calls.ownLimit(), Double.toString(rule.threshold()), FlowKeys.perInstance(mode),
      Long.toString(mode.bucketMs()), Integer.toString(mode.buckets()), Integer.toString(permits),
      prioritized ? "1" : "0", calls.instanceId(), calls.instanceExpiryMs(),
      Integer.toString(wanted)
    };
    long sentAt = leases == null ? 0 : clock.nanoTime();
    List<Object> answer = calls.ask(link, flow.tokenKeys(), args);
    if (answer == null) {
      return TokenService.Result.FAILED;
    }
    long code = (Long) answer.get(0);
    if (code == 0) {
      if (leases != null) {
        long granted = (Long) answer.get(2);
        long leftMicros = (Long) answer.get(3);
        leases.keep(granted - permits, sentAt + leftMicros * 1000, clock.nanoTime());
        return TokenService.Result.ok((Long) answer.get(1)); // given back to the lease
      }
      return Answers.granted(answer);
    }
    if (code == 1) {
      return Answers.grantedAfter(answer);
    }
    return Answers.refusal(code);
  }

  /**
   * Gives a grant back: exactly, to the bucket of every window that counted it (one script call),
   * or in leased mode, for a grant without an id, to the running lease (no round trip; after the
   * lease ended the permits are lost, as any left in it). Failures are counted and ignored.
   */
  void giveBack(FlowRule rule, int permits, TokenService.Result grant) {
    ClusterMode mode = rule.cluster();
    if (mode == null || permits <= 0 || calls.closed()) {
      return;
    }
    FlowKeys.Flow flow = keys.of(mode.flowId());
    Leases leases = flow.leases();
    if (grant.tokenId() == 0) {
      if (leases != null) {
        leases.giveBack(permits, clock.nanoTime());
      }
      return;
    }
    Connector.Link link = calls.link();
    if (link == null) {
      return;
    }
    calls.run(link, Scripts.TOKENS, ScriptOutputType.MULTI,
        new String[] {flow.tokenKeys()[0]}, "g", "0", Integer.toString(permits),
        Long.toString(Answers.countedAtMs(grant.tokenId())), calls.windowTime());
  }
}
