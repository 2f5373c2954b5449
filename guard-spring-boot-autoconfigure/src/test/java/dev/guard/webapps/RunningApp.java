package dev.guard.webapps;

import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * What a test of a running test application holds: its port, its engine and the engine's clock,
 * and two clients.
 * Each test starts with no rules and a fresh window (the context, and so the engine, is shared by
 * the tests of a class).
 */
public abstract class RunningApp {

  @LocalServerPort protected int port;
  @Autowired protected GuardEngine engine;
  @Autowired protected ManualClock clock;
  /** The JDK's HTTP client, for the application. */
  protected Client client;
  /** Spring's test client, bound to the running server. */
  protected WebTestClient web;

  @BeforeEach
  void noRulesAndAFreshWindow() {
    engine.apply(RuleSet.of(List.of()));
    clock.advance(Duration.ofMinutes(1));
    client = new Client(port);
    web = WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port).build();
  }
}
