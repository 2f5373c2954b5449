package dev.guard.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link GuardHttpServerFilter} on the JDK's built-in HTTP server. */
class HttpServerFilterTest extends InboundContract {

  @Override
  TestServer start(TestApp app, HttpInbound inbound) throws Exception {
    return JdkTestServer.start(app, inbound);
  }

  @Override
  boolean answersHandlerExceptionWith500() {
    return false;
  }

  @Override
  boolean onJetty() {
    return false;
  }

  @Test
  void veryLongPaths_shareTheCatchAll_withoutGrowingTheResources() throws Exception {
    int before = engine.resources().size();

    for (int i = 0; i < 20; i++) {
      String path = "/" + i + "x".repeat(60_000);
      assertThat(RawRequests.status(server.base(), "GET", path)).isEqualTo(200);
    }

    assertThat(engine.resources()).hasSize(before + 1).contains(HttpInbound.OVERFLOW_RESOURCE);
    assertThat(server.overflows()).isEqualTo(20);
  }
}
