package dev.guard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.spi.TokenService;
import dev.guard.spi.TokenService.Result.Status;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The concurrency part of the {@link TokenServiceContract}: tokens held up to the threshold and
 * given back once, tokens of a holder that never gives them back expiring with their lease,
 * closing an instance giving its tokens back, and what every request answers after close or
 * without cluster mode or permits ({@code FAILED}).
 *
 * <p>The concurrency rule's tokens live 60 s, so only an explicit advance of the clock lets one
 * expire.
 */
abstract class ConcurrencyContract extends FlowTokenContract {

  @Test
  void concurrency_tokensAreHeldUpToTheThreshold_andGivenBack() {
    FlowRule two = concurrency(2);
    TokenService a = join(0);
    TokenService b = join(0);
    TokenService.Result held = a.acquireConcurrency(two, 1);
    assertThat(held.status()).isEqualTo(Status.OK);
    assertThat(b.acquireConcurrency(two, 1).status()).isEqualTo(Status.OK);
    assertThat(a.acquireConcurrency(two, 1).status()).isEqualTo(Status.REFUSED);
    assertThat(a.releaseConcurrency(held.tokenId())).isTrue();
    assertThat(a.releaseConcurrency(held.tokenId())).as("given back once").isFalse();
    assertThat(b.acquireConcurrency(two, 1).status()).isEqualTo(Status.OK);
  }

  @Test
  void concurrency_tokensOfAHolderThatNeverGivesThemBack_expireWithTheirLease() {
    FlowRule two = concurrency(2);
    TokenService dead = join(0);
    TokenService alive = join(0);
    assertThat(dead.acquireConcurrency(two, 2).status()).isEqualTo(Status.OK);
    assertThat(alive.acquireConcurrency(two, 1).status()).isEqualTo(Status.REFUSED);
    clock.advance(Duration.ofSeconds(61)); // the lease is 60 s
    assertThat(alive.acquireConcurrency(two, 2).status()).isEqualTo(Status.OK);
  }

  @Test
  void concurrency_closingAnInstance_givesItsTokensBack() throws Exception {
    FlowRule two = concurrency(2);
    TokenService leaving = join(0);
    TokenService staying = join(0);
    assertThat(leaving.acquireConcurrency(two, 2).status()).isEqualTo(Status.OK);
    close(leaving);
    assertThat(staying.acquireConcurrency(two, 2).status()).isEqualTo(Status.OK);
  }

  @Test
  void close_answersFailed_andIgnoresWhatComesAfter() throws Exception {
    TokenService one = join(0);
    TokenService.Result grant = one.requestToken(rule(1), 1, false);
    close(one);
    assertThat(one.requestToken(rule(1), 1, false).status()).isEqualTo(Status.FAILED);
    assertThat(one.acquireConcurrency(concurrency(2), 1).status()).isEqualTo(Status.FAILED);
    assertThat(one.releaseConcurrency(1)).isFalse();
    one.giveBack(rule(1), 1, grant); // ignored, does not throw
  }

  @Test
  void requests_withoutClusterMode_orWithoutPermits_areFailed() {
    TokenService one = join(0);
    assertThat(one.requestToken(FlowRule.qps("contract", 1), 1, false).status())
        .isEqualTo(Status.FAILED);
    assertThat(one.requestToken(rule(1), 0, false).status()).isEqualTo(Status.FAILED);
    assertThat(one.acquireConcurrency(concurrency(2), 0).status()).isEqualTo(Status.FAILED);
  }
}
