package dev.guard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.testing.Await;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A client that disconnects while its request waits on the backend: the gateway cancels the
 * exchange and the route gives the place back, exactly once.
 */
class Issue38GatewayCancelTest extends GatewayTest {

  @Test
  void clientDisconnects_whileTheBackendHoldsTheRequest_theRouteIsLeftOnce() throws Exception {
    rules(FlowRule.concurrency("slow", 1));
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 30_000);
      OutputStream out = socket.getOutputStream();
      out.write(("GET /slow/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      Backend.INSTANCE.awaitSlowArrival();
      assertThat(engine.stats("slow").concurrency()).isEqualTo(1);
    } // the client goes away with its request in flight
    try {
      Await.until("the cancelled request leaves route slow", Duration.ofSeconds(30),
          () -> engine.stats("slow").concurrency() == 0);
    } finally {
      Backend.INSTANCE.releaseSlow();
    }

    assertThat(engine.stats("slow").concurrency()).isZero();
    assertThat(engine.stats("slow").totalException()).isZero();
    assertThat(engine.stats("slow").totalPass()).isEqualTo(1);
    Backend.INSTANCE.releaseSlow();
  }
}
