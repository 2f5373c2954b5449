package dev.guard.http;

/** {@link GuardServletFilter} on a real embedded Jetty 12 (ee10). */
class JettyServletFilterTest extends InboundContract {

  @Override
  TestServer start(TestApp app, HttpInbound inbound) throws Exception {
    return JettyTestServer.start(app, inbound);
  }

  @Override
  boolean answersHandlerExceptionWith500() {
    return true;
  }

  @Override
  boolean onJetty() {
    return true;
  }
}
