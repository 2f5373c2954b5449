package dev.guard.http;

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
}
