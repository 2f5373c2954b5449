package dev.guard.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import java.util.List;
import org.eclipse.jetty.http.UriCompliance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"LEGACY", "UNSAFE"})
  void lenientUriCompliance_spellingsStillMeetTheRule_orGet400(String mode) throws Exception {
    server.close();
    server = JettyTestServer.start(app, HttpInbound.of(engine), UriCompliance.valueOf(mode));
    engine.apply(engine.ruleSet().withRulesOf(PathSpellings.ADMIN, List.of(FlowRule.qps(PathSpellings.ADMIN, 0))));

    for (PathSpellings.Spelling spelling : PathSpellings.ADMIN_SPELLINGS) {
      int status = RawRequests.status(server.base(), spelling.method(), spelling.target());
      assertThat(status).as(spelling.method() + " " + spelling.target()).isIn(400, 429);
    }
    assertThat(app.handled).as("requests that reached the handler").hasValue(0);
  }
}
