package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.spi.TokenService;
import org.junit.jupiter.api.Test;

/** The builder's validation: names that would break the keys' hash tag, and option conflicts. */
class RedisTokenServiceBuilderTest {

  @Test
  void namespace_withABraceOrColon_isRefusedNamingFieldAndValue() {
    for (String bad : new String[] {"sh{op", "shop}", "a:b"}) {
      assertThatThrownBy(() -> RedisTokenService.builder("redis://127.0.0.1:1", bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("namespace must not contain '{', '}' or ':'")
          .hasMessageEndingWith("was '" + bad + "'");
    }
  }

  @Test
  void severalServers_needClusterMode() {
    assertThatThrownBy(() -> RedisTokenService
        .builder("redis://127.0.0.1:1,redis://127.0.0.1:2", "shop").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cluster()");
  }

  @Test
  void lease_isAtLeastTwo_andSetOnce() {
    assertThatThrownBy(() -> RedisTokenService.builder("redis://127.0.0.1:1", "shop").lease(1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("lease must be > 1, was 1");
    assertThatThrownBy(() -> RedisTokenService.builder("redis://127.0.0.1:1", "shop")
        .lease(4).lease(8))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("lease");
  }

  @Test
  void closedService_answersFailed_andSaysWhereItConnects() {
    RedisTokenService service =
        RedisTokenService.builder("redis://127.0.0.1:1", "shop").instanceId("a").build();
    service.close();
    FlowRule rule = FlowRule.qps("R", 1).withCluster(ClusterMode.global("orders"));
    assertThat(service.requestToken(rule, 1, false)).isEqualTo(TokenService.Result.FAILED);
    assertThat(service.acquireConcurrency(rule, 1)).isEqualTo(TokenService.Result.FAILED);
    assertThat(service).hasToString("RedisTokenService[127.0.0.1:1, namespace=shop, instance=a]");
  }
}
