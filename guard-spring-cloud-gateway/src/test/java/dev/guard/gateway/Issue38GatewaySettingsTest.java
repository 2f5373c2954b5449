package dev.guard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.server.PathContainer;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

/**
 * The gateway settings without a server: bad key spellings, proxies and groups fail early naming
 * the setting and the value; the trusted-proxy rule walks the forwarded chain from the right.
 */
class Issue38GatewaySettingsTest {

  private static final TrustedProxies PROXIES =
      TrustedProxies.of("trusted-proxies", List.of("10.0.0.0/8", "fd00::/8", "192.168.1.1"));

  @Test
  void keys_thatAreNoKey_areRejectedByName() {
    assertThatThrownBy(() -> KeySource.parse("header", PROXIES))
        .hasMessage("keys: 'header:' needs a name, was 'header'");
    assertThatThrownBy(() -> KeySource.parse("path:x", PROXIES))
        .hasMessageStartingWith("keys: must be client-address, host, header:NAME")
        .hasMessageEndingWith("was 'path:x'");
  }

  @Test
  void trustedProxies_thatAreNoAddress_areRejectedByName_withoutLookingAnythingUp() {
    for (String bad : List.of("proxy.example", "10.0.0.0/33", "300.1.1.1", "10.0.0.0/x", "")) {
      assertThatThrownBy(() -> TrustedProxies.of("guard.gateway.trusted-proxies", List.of(bad)))
          .hasMessage("guard.gateway.trusted-proxies: must hold IP addresses or CIDR blocks, was '"
              + bad + "'");
    }
  }

  @Test
  void groups_withoutPatterns_areRejectedByName() {
    assertThatThrownBy(() -> ApiGroups.of("guard.gateway.groups", Map.of("orders", List.of())))
        .hasMessage("guard.gateway.groups.orders: must hold at least one path pattern, was []");
  }

  @Test
  void groups_matchInConfigurationOrder() {
    ApiGroups groups = ApiGroups.of("groups", new java.util.LinkedHashMap<>(Map.of(
        "orders", List.of("/orders/**"))));

    assertThat(groups.matching(PathContainer.parsePath("/orders/1"))).containsExactly("orders");
    assertThat(groups.matching(PathContainer.parsePath("/items/1"))).isEmpty();
  }

  @Test
  void clientAddress_skipsTrustedHopsFromTheRight() {
    assertThat(client("10.1.2.3", "X-Forwarded-For", "203.0.113.9, 198.51.100.4, 10.9.9.9"))
        .isEqualTo("198.51.100.4");
    assertThat(client("10.1.2.3", "X-Forwarded-For", "10.5.5.5, 10.6.6.6"))
        .isEqualTo("10.5.5.5");
    assertThat(client("fd00::1", "Forwarded", "for=\"[2001:db8::1]:4711\";proto=https, for=10.0.0.2"))
        .isEqualTo("2001:db8::1");
    assertThat(client("10.1.2.3", "X-Forwarded-For", "unknown"))
        .isEqualTo("unknown");
    assertThat(client("10.1.2.3", "Other", "x")).isEqualTo("10.1.2.3");
  }

  @Test
  void clientAddress_fromAnUntrustedPeer_isThePeer() {
    assertThat(client("192.168.1.2", "X-Forwarded-For", "203.0.113.9")).isEqualTo("192.168.1.2");
    assertThat(TrustedProxies.NONE.clientAddress(request("10.1.2.3", "X-Forwarded-For", "1.2.3.4")))
        .isEqualTo("10.1.2.3");
  }

  private static String client(String peer, String header, String value) {
    return PROXIES.clientAddress(request(peer, header, value));
  }

  private static MockServerHttpRequest request(String peer, String header, String value) {
    return MockServerHttpRequest.get("/x").header(header, value)
        .remoteAddress(new InetSocketAddress(peer, 40000)).build();
  }
}
