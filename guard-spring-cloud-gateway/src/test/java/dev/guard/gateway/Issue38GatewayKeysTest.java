package dev.guard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.PerValueRule;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Per-key limits on the {@code keyed} route, whose filter takes five keys: {@code
 * header:X-Api-Key} (argument 0), {@code query:tenant} (1), {@code cookie:session} (2), {@code
 * host} (3) and {@code client-address} (4). Each limits by its own value, an absent value is one
 * key of its own, and forwarded headers count only from a trusted proxy (127.0.0.1 here; the
 * untrusted client connects from 127.0.0.2).
 */
class Issue38GatewayKeysTest extends GatewayTest {

  @Test
  void header_limitsEachValue_andAbsenceIsAKeyOfItsOwn() throws Exception {
    rules(PerValueRule.qps("keyed", 0, 1));

    assertThat(status("/keyed/x", "X-Api-Key", "alice")).isEqualTo(200);
    assertThat(status("/keyed/x", "X-Api-Key", "alice")).isEqualTo(429);
    assertThat(status("/keyed/x", "X-Api-Key", "bob")).isEqualTo(200);
    assertThat(status("/keyed/x")).isEqualTo(200);
    assertThat(status("/keyed/x")).isEqualTo(429);
  }

  @Test
  void longHeaderValues_areKeptAsTheirDigest_andStillLimited() throws Exception {
    rules(PerValueRule.qps("keyed", 0, 1));
    String longKey = "k".repeat(5000);

    assertThat(status("/keyed/x", "X-Api-Key", longKey)).isEqualTo(200);
    assertThat(status("/keyed/x", "X-Api-Key", longKey)).isEqualTo(429);
    assertThat(status("/keyed/x", "X-Api-Key", longKey + "2")).isEqualTo(200);
  }

  @Test
  void queryParameter_limitsEachValue() throws Exception {
    rules(PerValueRule.qps("keyed", 1, 1));

    assertThat(status("/keyed/x?tenant=a")).isEqualTo(200);
    assertThat(status("/keyed/x?tenant=a")).isEqualTo(429);
    assertThat(status("/keyed/x?tenant=b")).isEqualTo(200);
  }

  @Test
  void cookie_limitsEachValue() throws Exception {
    rules(PerValueRule.qps("keyed", 2, 1));

    assertThat(status("/keyed/x", "Cookie", "session=s1")).isEqualTo(200);
    assertThat(status("/keyed/x", "Cookie", "other=1; session=s1")).isEqualTo(429);
    assertThat(status("/keyed/x", "Cookie", "session=s2")).isEqualTo(200);
  }

  @Test
  void host_limitsEachHost_withoutItsPort() throws Exception {
    rules(PerValueRule.qps("keyed", 3, 1));

    assertThat(raw("127.0.0.1", "/keyed/x", "Host: shop.example:" + port)).startsWith("HTTP/1.1 200");
    assertThat(raw("127.0.0.1", "/keyed/x", "Host: SHOP.example")).startsWith("HTTP/1.1 429");
    assertThat(raw("127.0.0.1", "/keyed/x", "Host: other.example")).startsWith("HTTP/1.1 200");
  }

  @Test
  void clientAddress_fromATrustedProxy_isTheForwardedClient() throws Exception {
    rules(PerValueRule.qps("keyed", 4, 1));

    assertThat(raw("127.0.0.1", "/keyed/x", "X-Forwarded-For: 198.51.100.1")).startsWith("HTTP/1.1 200");
    assertThat(raw("127.0.0.1", "/keyed/x", "X-Forwarded-For: 198.51.100.1, 127.0.0.1"))
        .startsWith("HTTP/1.1 429");
    assertThat(raw("127.0.0.1", "/keyed/x", "X-Forwarded-For: 198.51.100.2")).startsWith("HTTP/1.1 200");
    assertThat(raw("127.0.0.1", "/keyed/x", "Forwarded: for=\"[2001:db8::7]:4711\""))
        .startsWith("HTTP/1.1 200");
    assertThat(raw("127.0.0.1", "/keyed/x", "Forwarded: for=2001:db8::7")).startsWith("HTTP/1.1 429");
  }

  @Test
  void clientAddress_fromAnUntrustedPeer_ignoresForwardedHeaders() throws Exception {
    rules(PerValueRule.qps("keyed", 4, 1));

    assertThat(raw("127.0.0.2", "/keyed/x", "X-Forwarded-For: 198.51.100.1")).startsWith("HTTP/1.1 200");
    assertThat(raw("127.0.0.2", "/keyed/x", "X-Forwarded-For: 198.51.100.2")).startsWith("HTTP/1.1 429");
    assertThat(raw("127.0.0.2", "/keyed/x", "Forwarded: for=198.51.100.3")).startsWith("HTTP/1.1 429");
    assertThat(raw("127.0.0.1", "/keyed/x")).startsWith("HTTP/1.1 200");
  }

  /**
   * Sends one GET from a chosen loopback address with these header lines (a Host line of its own
   * replaces the default) and returns the whole response.
   */
  private String raw(String from, String path, String... headerLines) throws IOException {
    try (Socket socket = new Socket()) {
      socket.setSoTimeout(30_000);
      socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 30_000);
      StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\n");
      boolean host = false;
      for (String line : headerLines) {
        host |= line.regionMatches(true, 0, "Host:", 0, 5);
        request.append(line).append("\r\n");
      }
      if (!host) {
        request.append("Host: 127.0.0.1:").append(port).append("\r\n");
      }
      request.append("Connection: close\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }
}
