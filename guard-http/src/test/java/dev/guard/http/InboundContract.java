package dev.guard.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.RuleState;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What both inbound adapters guarantee, checked over the network against a real server (started on
 * a free loopback port for each test) with the JDK's HTTP client. The engine runs on a manual
 * clock that never moves unless a test moves it, so every QPS window holds all of a test's calls.
 */
abstract class InboundContract {

  static final String ORDERS = "GET /orders/{id}";

  final ManualClock clock = new ManualClock();
  final GuardEngine engine = GuardEngine.builder().clock(clock).build();
  final TestApp app = new TestApp(engine);
  final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(TestApp.WAIT_SECONDS)).build();
  TestServer server;

  /** Starts the test application behind this adapter with these settings. */
  abstract TestServer start(TestApp app, HttpInbound inbound) throws Exception;

  /** Whether the server answers 500 to a handler exception (else it drops the connection). */
  abstract boolean answersHandlerExceptionWith500();

  /** Whether the adapter runs on Jetty (else on the JDK server): see {@link PathSpellings}. */
  abstract boolean onJetty();

  @BeforeEach
  void startDefault() throws Exception {
    server = start(app, HttpInbound.of(engine).entrance("shop").originHeader("X-Caller"));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  void restart(HttpInbound inbound) throws Exception {
    server.close();
    server = start(app, inbound);
  }

  HttpResponse<String> get(String path, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(server.base().resolve(path))
        .timeout(Duration.ofSeconds(TestApp.WAIT_SECONDS));
    if (headers.length > 0) {
      request.headers(headers);
    }
    HttpResponse<String> response = client.send(request.build(), BodyHandlers.ofString());
    app.awaitFinished(1);
    return response;
  }

  NodeStats stats(String resource) {
    return engine.stats(resource);
  }

  @Test
  void qpsLimit_refusesOverTheLimitWith429AndJson_beforeTheHandler() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 2))));

    assertThat(get("/orders/1").statusCode()).isEqualTo(200);
    assertThat(get("/orders/2").statusCode()).isEqualTo(200);
    HttpResponse<String> refused = get("/orders/3");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
        type -> assertThat(type).startsWith("application/json"));
    assertThat(refused.body()).isEqualTo("{\"status\":429,\"error\":\"Too Many Requests\","
        + "\"protection\":\"flow\",\"resource\":\"GET /orders/{id}\"}");
    assertThat(refused.headers().firstValue("Retry-After")).as("the next window bucket, rounded up")
        .contains("1");
    assertThat(app.handled).hasValue(2);
    assertThat(stats(ORDERS).totalPass()).isEqualTo(2);
    assertThat(stats(ORDERS).totalRefused()).isEqualTo(1);
  }

  @Test
  void requests_enterAsInboundCallsInTheEntranceContext() throws Exception {
    get("/orders/1");

    assertThat(engine.inboundStats().totalPass()).isEqualTo(1);
    assertThat(engine.entranceStats("shop")).isPresent();
  }

  @Test
  void paths_areCleanedIntoOneResourcePerTemplate() throws Exception {
    get("/orders/1");
    get("/orders/42/");
    get("/orders/3f2c1a9e-8b7d-4c6e-9f01-23456789abcd");
    get("/orders/;jsessionid=abc");
    get("/orders/history");

    assertThat(stats(ORDERS).totalPass()).isEqualTo(3);
    assertThat(engine.resources()).contains(ORDERS, "GET /orders", "GET /orders/history");
  }

  @Test
  void resources_areBounded_furtherPathsShareTheOverflowResource() throws Exception {
    restart(HttpInbound.of(engine).maxResources(2));

    for (String path : List.of("/a", "/b", "/c", "/d", "/a")) {
      assertThat(get(path).statusCode()).isEqualTo(200);
    }

    assertThat(engine.resources()).contains("GET /a", "GET /b", HttpInbound.OVERFLOW_RESOURCE)
        .doesNotContain("GET /c", "GET /d");
    assertThat(stats(HttpInbound.OVERFLOW_RESOURCE).totalPass()).isEqualTo(2);
    assertThat(server.overflows()).isEqualTo(2);
  }

  @Test
  void resources_fullBound_aPathWithRulesKeepsItsOwnResource() throws Exception {
    restart(HttpInbound.of(engine).maxResources(2));
    engine.apply(engine.ruleSet().withRulesOf("GET /admin", List.of(FlowRule.qps("GET /admin", 0))));

    for (String path : List.of("/a", "/b", "/c")) {
      assertThat(get(path).statusCode()).isEqualTo(200);
    }
    HttpResponse<String> refused = get("/admin");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.body()).contains("\"resource\":\"GET /admin\"");
    assertThat(app.handled).hasValue(3);
    assertThat(server.overflows()).isEqualTo(1);
  }

  @Test
  void overflowResource_isOneCatchAllThatRulesLimit() throws Exception {
    String overflow = HttpInbound.OVERFLOW_RESOURCE;
    restart(HttpInbound.of(engine).maxResources(1));
    engine.apply(engine.ruleSet().withRulesOf(overflow, List.of(FlowRule.qps(overflow, 2))));

    assertThat(get("/a").statusCode()).isEqualTo(200);
    assertThat(get("/b").statusCode()).isEqualTo(200);
    HttpResponse<Void> post = client.send(HttpRequest.newBuilder(server.base().resolve("/c"))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), BodyHandlers.discarding());
    app.awaitFinished(1);
    HttpResponse<String> refused = get("/d");

    assertThat(post.statusCode()).as("every method shares it").isEqualTo(200);
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.body()).contains("\"resource\":\"" + overflow + "\"");
    assertThat(stats(overflow).totalPass()).isEqualTo(2);
    assertThat(stats(overflow).totalRefused()).isEqualTo(1);
  }

  @Test
  void longPath_entersTheCatchAll_withoutANameOfItsOwn() throws Exception {
    String path = "/" + "x".repeat(2000);

    assertThat(get(path).statusCode()).isEqualTo(200);

    assertThat(stats(HttpInbound.OVERFLOW_RESOURCE).totalPass()).isEqualTo(1);
    assertThat(engine.resources()).doesNotContain("GET " + path);
    assertThat(server.overflows()).isEqualTo(1);
  }

  @Test
  void spellingsOfAPath_meetItsFlowRule_orAreRefusedAsAmbiguous() throws Exception {
    String admin = PathSpellings.ADMIN;
    engine.apply(engine.ruleSet().withRulesOf(admin, List.of(FlowRule.qps(admin, 0))));

    List<String> wrong =
        PathSpellings.tryAll(server, app, onJetty(), PathSpellings.ADMIN_SPELLINGS);

    assertThat(wrong).as("spellings answered otherwise than expected").isEmpty();
    assertThat(app.handled).as("requests that reached the handler").hasValue(0);
    assertThat(stats(admin).totalRefused())
        .isEqualTo(PathSpellings.count(PathSpellings.ADMIN_SPELLINGS, onJetty(), 429));
  }

  @Test
  void spellingsOfAPath_meetItsOriginDenyList() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(OriginRule.deny(ORDERS, "scraper"))));

    List<String> wrong = PathSpellings.tryAll(server, app, onJetty(),
        PathSpellings.ORDER_SPELLINGS, "X-Caller: scraper");

    assertThat(wrong).as("spellings answered otherwise than expected").isEmpty();
    assertThat(app.handled).as("requests that reached the handler").hasValue(0);
    assertThat(stats(ORDERS).totalRefused())
        .isEqualTo(PathSpellings.count(PathSpellings.ORDER_SPELLINGS, onJetty(), 429));
  }

  @Test
  void originHeader_namesTheCaller_forOriginSpecificRules() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 1).withOrigin("mobile"))));

    assertThat(get("/orders/1", "X-Caller", "mobile").statusCode()).isEqualTo(200);
    assertThat(get("/orders/2", "X-Caller", " mobile ").statusCode()).isEqualTo(429);
    assertThat(get("/orders/3", "X-Caller", "web").statusCode()).isEqualTo(200);
    assertThat(get("/orders/4").statusCode()).isEqualTo(200);

    assertThat(stats(ORDERS).origin("mobile")).hasValueSatisfying(
        mobile -> assertThat(mobile.totalRefused()).isEqualTo(1));
  }

  @Test
  void originAuthority_refusesTheCallerTheHeaderNames() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(OriginRule.deny(ORDERS, "scraper"))));

    HttpResponse<String> refused = get("/orders/1", "X-Caller", "scraper");
    assertThat(get("/orders/2", "X-Caller", "shop-app").statusCode()).isEqualTo(200);
    assertThat(get("/orders/3").statusCode()).isEqualTo(200);

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.body()).contains("\"protection\":\"origin\"");
    assertThat(app.handled).hasValue(2);
  }

  @Test
  void systemRules_seeEveryRequest_asAnInboundCall() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxInboundQps(2))));

    assertThat(get("/orders/1").statusCode()).isEqualTo(200);
    assertThat(get("/status/200").statusCode()).isEqualTo(200);
    HttpResponse<String> refused = get("/orders/2");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.body()).contains("\"protection\":\"system\"");
  }

  @Test
  void originFunction_derivesTheCallerFromTheRequest() throws Exception {
    restart(HttpInbound.of(engine).origin(request -> request.method() + "@" + request.remoteAddress()));
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 0).withOrigin("GET@127.0.0.1"))));

    assertThat(get("/orders/1").statusCode()).isEqualTo(429);
  }

  @Test
  void rateLimitHeaders_areOffByDefault() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 1))));

    assertThat(get("/orders/1").headers().firstValue("RateLimit")).isEmpty();
    HttpResponse<String> refused = get("/orders/2");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("RateLimit-Policy")).isEmpty();
    assertThat(refused.headers().firstValue("RateLimit")).isEmpty();
  }

  @Test
  void rateLimitHeaders_countDownOnAdmittedResponses_andStayOnRefusals() throws Exception {
    restart(HttpInbound.of(engine).rateLimitHeaders(true));
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 2))));

    HttpResponse<String> first = get("/orders/1");
    HttpResponse<String> second = get("/orders/2");
    HttpResponse<String> refused = get("/orders/3");

    assertThat(first.headers().firstValue("RateLimit-Policy")).contains("\"resource\";q=2;w=1");
    assertThat(first.headers().firstValue("RateLimit")).contains("\"resource\";r=1;t=1");
    assertThat(second.headers().firstValue("RateLimit")).contains("\"resource\";r=0;t=1");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("RateLimit-Policy")).contains("\"resource\";q=2;w=1");
    assertThat(refused.headers().firstValue("RateLimit")).contains("\"resource\";r=0;t=1");
    assertThat(refused.headers().firstValue("Retry-After")).contains("1");
  }

  @Test
  void rateLimitHeaders_nameTheOriginPolicy_forTheCallersOriginRule() throws Exception {
    restart(HttpInbound.of(engine).originHeader("X-Caller").rateLimitHeaders(true));
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 10),
        FlowRule.qps(ORDERS, 3).withOrigin("mobile"))));

    HttpResponse<String> mobile = get("/orders/1", "X-Caller", "mobile");
    HttpResponse<String> web = get("/orders/1", "X-Caller", "web");

    assertThat(mobile.headers().firstValue("RateLimit")).contains("\"origin\";r=2;t=1");
    assertThat(web.headers().firstValue("RateLimit")).contains("\"resource\";r=8;t=1");
  }

  @Test
  void rateLimitHeaders_listTheQuotas_andReportTheOneClosestToRefusing() throws Exception {
    restart(HttpInbound.of(engine).rateLimitHeaders(true));
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 100)
        .withQuota(3, Duration.ofMinutes(1)).withQuota(10_000, Duration.ofDays(1)))));
    String policies = "\"resource\";q=100;w=1, \"resource-60s\";q=3;w=60,"
        + " \"resource-86400s\";q=10000;w=86400";

    HttpResponse<String> first = get("/orders/1");
    clock.advanceMillis(20_000);
    HttpResponse<String> second = get("/orders/2");
    HttpResponse<String> third = get("/orders/3");
    HttpResponse<String> refused = get("/orders/4");

    assertThat(first.headers().firstValue("RateLimit-Policy")).contains(policies);
    assertThat(first.headers().firstValue("RateLimit")).contains("\"resource-60s\";r=2;t=61");
    assertThat(second.headers().firstValue("RateLimit")).contains("\"resource-60s\";r=1;t=41");
    assertThat(third.headers().firstValue("RateLimit")).contains("\"resource-60s\";r=0;t=41");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("RateLimit-Policy")).contains(policies);
    assertThat(refused.headers().firstValue("RateLimit"))
        .as("the refusal took nothing").contains("\"resource-60s\";r=0;t=41");
    assertThat(refused.headers().firstValue("Retry-After")).contains("41");

    clock.advanceMillis(40_001);
    HttpResponse<String> next = get("/orders/5");
    assertThat(next.headers().firstValue("RateLimit")).contains("\"resource-60s\";r=2;t=61");
  }

  @Test
  void rateLimitHeaders_theDaysQuota_isReportedOnceItHasFewestLeft() throws Exception {
    restart(HttpInbound.of(engine).originHeader("X-Caller").rateLimitHeaders(true));
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 100)
        .withOrigin("mobile").withQuota(2, Duration.ofMinutes(1))
        .withQuota(3, Duration.ofDays(1)))));

    get("/orders/1", "X-Caller", "mobile");
    get("/orders/2", "X-Caller", "mobile");
    clock.advanceMillis(60_001);
    HttpResponse<String> third = get("/orders/3", "X-Caller", "mobile");
    HttpResponse<String> web = get("/orders/4", "X-Caller", "web");

    assertThat(third.headers().firstValue("RateLimit-Policy")).contains(
        "\"origin\";q=100;w=1, \"origin-60s\";q=2;w=60, \"origin-86400s\";q=3;w=86400");
    assertThat(third.headers().firstValue("RateLimit"))
        .contains("\"origin-86400s\";r=0;t=86340");
    assertThat(web.headers().firstValue("RateLimit")).as("no rule for this origin").isEmpty();
  }

  @Test
  void rateLimitHeaders_withoutQpsRule_areNotSent() throws Exception {
    restart(HttpInbound.of(engine).rateLimitHeaders(true));
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.concurrency(ORDERS, 5))));

    HttpResponse<String> response = get("/orders/1");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("RateLimit")).isEmpty();
  }

  @Test
  void argumentHeaders_limitEachKeyOnItsOwn_andLeavingTheHeaderOutSharesOneBudget()
      throws Exception {
    restart(HttpInbound.of(engine).argumentHeaders("X-Api-Key"));
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(PerValueRule.qps(ORDERS, 0, 2))));

    assertThat(get("/orders/1", "X-Api-Key", "alice").statusCode()).isEqualTo(200);
    assertThat(get("/orders/2", "X-Api-Key", " alice ").statusCode()).as("trimmed").isEqualTo(200);
    HttpResponse<String> refused = get("/orders/3", "X-Api-Key", "alice");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.body()).contains("\"protection\":\"per-value\"");
    assertThat(get("/orders/4", "X-Api-Key", "bob").statusCode()).isEqualTo(200);

    assertThat(get("/orders/5").statusCode()).isEqualTo(200);
    assertThat(get("/orders/6").statusCode()).isEqualTo(200);
    assertThat(get("/orders/7").statusCode()).as("no header: the empty key's budget")
        .isEqualTo(429);
  }

  @Test
  void argumentHeaders_keyALongValueByItsDigest() throws Exception {
    restart(HttpInbound.of(engine).argumentHeaders("X-Api-Key"));
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(PerValueRule.qps(ORDERS, 0, 1))));
    String longKey = "k".repeat(4_000);

    assertThat(get("/orders/1", "X-Api-Key", longKey).statusCode()).isEqualTo(200);
    assertThat(get("/orders/2", "X-Api-Key", longKey).statusCode()).isEqualTo(429);
    assertThat(get("/orders/3", "X-Api-Key", longKey + "2").statusCode()).isEqualTo(200);
    assertThat(engine.ruleStates(ORDERS)).singleElement()
        .isInstanceOfSatisfying(RuleState.PerValueState.class, state -> assertThat(
            state.limitedValues()).hasSize(2).allSatisfy(value -> assertThat(value).asString()
                .startsWith("sha256:").hasSize(71)));
  }

  @Test
  void rateLimitHeaders_tellEachKeyItsOwnQuota() throws Exception {
    restart(HttpInbound.of(engine).argumentHeaders("X-Api-Key").rateLimitHeaders(true));
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 50),
        PerValueRule.qps(ORDERS, 0, 100).withQuota(2, Duration.ofMinutes(1)))));
    String policies = "\"resource\";q=50;w=1, \"value\";q=100;w=1, \"value-60s\";q=2;w=60";

    HttpResponse<String> first = get("/orders/1", "X-Api-Key", "alice");
    clock.advanceMillis(20_000);
    HttpResponse<String> second = get("/orders/2", "X-Api-Key", "alice");
    HttpResponse<String> bob = get("/orders/3", "X-Api-Key", "bob");
    HttpResponse<String> refused = get("/orders/4", "X-Api-Key", "alice");

    assertThat(first.headers().firstValue("RateLimit-Policy")).contains(policies);
    assertThat(first.headers().firstValue("RateLimit")).contains("\"value-60s\";r=1;t=61");
    assertThat(second.headers().firstValue("RateLimit")).contains("\"value-60s\";r=0;t=41");
    assertThat(bob.headers().firstValue("RateLimit")).contains("\"value-60s\";r=1;t=61");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("RateLimit"))
        .as("the refusal took nothing").contains("\"value-60s\";r=0;t=41");
    assertThat(refused.headers().firstValue("Retry-After")).contains("41");
  }

  @Test
  void pathTemplate_namesTheResource_andNullFallsBackToTheCleanedPath() throws Exception {
    restart(HttpInbound.of(engine).pathTemplate(request ->
        request.path().startsWith("/orders/") ? "/orders/{orderId}" : null));
    String template = "GET /orders/{orderId}";
    engine.apply(engine.ruleSet().withRulesOf(template, List.of(FlowRule.qps(template, 1))));

    assertThat(get("/orders/1").statusCode()).isEqualTo(200);
    assertThat(get("/orders/abc").statusCode()).isEqualTo(429);
    get("/status/200");
    assertThat(engine.resources()).contains(template, "GET /status/{id}");
  }

  @Test
  void request_unwrapsToTheServersOwnObject_only() throws Exception {
    java.util.concurrent.atomic.AtomicReference<String> seen = new java.util.concurrent.atomic.AtomicReference<>();
    restart(HttpInbound.of(engine).origin(request -> {
      seen.set(request.unwrap(Object.class).map(o -> "object").orElse("none")
          + "/" + request.unwrap(String.class).map(o -> "string").orElse("none"));
      return "";
    }));

    get("/orders/1");
    assertThat(seen).hasValue("object/none");
  }

  @Test
  void serverErrors_countAsErrors_clientErrorsDoNot() throws Exception {
    assertThat(get("/status/500").statusCode()).isEqualTo(500);
    assertThat(get("/status/503").statusCode()).isEqualTo(503);
    assertThat(get("/status/404").statusCode()).isEqualTo(404);

    assertThat(stats("GET /status/{id}").totalException()).isEqualTo(2);
    assertThat(stats("GET /status/{id}").successQps()).isEqualTo(3);
  }

  @Test
  void openBreaker_answers503WithRetryAfter_andRecoversAfterTheProbe() throws Exception {
    String status = "GET /status/{id}";
    engine.apply(engine.ruleSet().withRulesOf(status, List.of(CircuitBreakerRule.errorCount(status, 1).withMinCalls(2)
        .withOpenFor(Duration.ofSeconds(5)))));
    get("/status/500");
    get("/status/502");

    HttpResponse<String> open = get("/status/200");
    assertThat(open.statusCode()).isEqualTo(503);
    assertThat(open.body()).contains("\"protection\":\"circuit-breaker\"");
    assertThat(open.headers().firstValue("Retry-After")).hasValue("5");
    assertThat(app.handled).hasValue(2);

    clock.advance(Duration.ofSeconds(5));
    assertThat(get("/status/200").statusCode()).isEqualTo(200); // the probe
    assertThat(engine.breakers(status).get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(get("/status/200").statusCode()).isEqualTo(200);
    assertThat(stats(status).concurrency()).isZero();
  }

  @Test
  void errorStatuses_areConfigurable() throws Exception {
    restart(HttpInbound.of(engine).errorStatuses(status -> status >= 400));

    get("/status/404");
    get("/status/200");

    assertThat(stats("GET /status/{id}").totalException()).isEqualTo(1);
  }

  @Test
  void handlerException_isRecorded_andTheEntryExitsOnce() throws Exception {
    // a POST, which the client does not retry when the JDK server drops the connection
    HttpRequest request = HttpRequest.newBuilder(server.base().resolve("/throw"))
        .POST(HttpRequest.BodyPublishers.noBody()).build();
    Throwable failure = catchThrowable(() -> {
      HttpResponse<String> response = client.send(request, BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(500);
    });
    app.awaitFinished(1);

    if (answersHandlerExceptionWith500()) {
      assertThat(failure).isNull();
    } else {
      assertThat(failure).isInstanceOf(IOException.class);
    }
    NodeStats stats = stats("POST /throw");
    assertThat(stats.totalException()).isEqualTo(1);
    assertThat(stats.successQps()).isEqualTo(1);
    assertThat(stats.concurrency()).isZero();
  }

  @Test
  void asyncResponse_exitsWhenTheResponseCompletes_notWhenTheDispatchReturns() throws Exception {
    CompletableFuture<HttpResponse<String>> response = client.sendAsync(
        HttpRequest.newBuilder(server.base().resolve("/async")).build(), BodyHandlers.ofString());
    TestApp.await(app.dispatchReturned);

    assertThat(stats("GET /async").concurrency()).isEqualTo(1);
    assertThat(stats("GET /async").successQps()).isZero();

    app.release.countDown();
    assertThat(response.get(TestApp.WAIT_SECONDS, TimeUnit.SECONDS).body()).isEqualTo("async done");
    app.awaitFinished(1);
    assertThat(stats("GET /async").concurrency()).isZero();
    assertThat(stats("GET /async").successQps()).isEqualTo(1);
    assertThat(engine.inboundStats().concurrency()).isZero();
  }

  @Test
  void clientDisconnectMidResponse_exitsOnce_andRecordsTheWriteFailure() throws Exception {
    disconnectMidResponse("/stream");
    app.awaitFinished(1);

    NodeStats stats = stats("GET /stream");
    assertThat(stats.concurrency()).isZero();
    assertThat(stats.successQps()).isEqualTo(1);
    assertThat(stats.totalException()).isEqualTo(1);
    assertThat(engine.inboundStats().concurrency()).isZero();
  }

  @Test
  void clientDisconnectMidAsyncResponse_exitsOnce() throws Exception {
    disconnectMidResponse("/async-stream");
    app.awaitFinished(1);

    NodeStats stats = stats("GET /async-stream");
    assertThat(stats.concurrency()).isZero();
    assertThat(stats.successQps()).isEqualTo(1);
    assertThat(engine.inboundStats().concurrency()).isZero();
  }

  /** Reads the start of a streamed response, then resets the connection. */
  private void disconnectMidResponse(String path) throws IOException {
    URI base = server.base();
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(("GET " + path + " HTTP/1.1\r\nHost: " + base.getHost() + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      assertThat(in.read(new byte[1024])).isPositive();
      TestApp.await(app.streaming);
      assertThat(stats("GET " + path).concurrency()).isEqualTo(1);
      socket.setSoLinger(true, 0); // close with a reset: the client is gone at once
    }
  }

  @Test
  void refusalInsideTheHandler_isAnsweredWithTheRefusalResponse() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf("inner", List.of(FlowRule.qps("inner", 1))));

    assertThat(get("/nested").body()).isEqualTo("nested inner");
    HttpResponse<String> refused = get("/nested");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.body()).contains("\"resource\":\"inner\"");
    assertThat(stats("GET /nested").totalException()).isZero();
    assertThat(stats("GET /nested").concurrency()).isZero();
  }

  @Test
  void openBreakerInsideTheHandler_is503_andNoErrorOfTheRequest() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf("inner",
        List.of(CircuitBreakerRule.errorCount("inner", 1).withOpenFor(Duration.ofSeconds(5)))));
    engine.breakers("inner").get(0).forceOpen();

    HttpResponse<String> refused = get("/nested");

    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.body()).contains("\"protection\":\"circuit-breaker\"");
    assertThat(stats("GET /nested").totalException()).isZero();
    assertThat(stats("GET /nested").concurrency()).isZero();
  }

  @Test
  void refusalResponse_isCustomizable_withRetryAfterInWholeSecondsRoundedUp() throws Exception {
    restart(HttpInbound.of(engine).refusalResponse(
        refused -> new HttpInbound.RefusalResponse(418, "text/plain", "later", Duration.ofMillis(1500))));
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 0))));

    HttpResponse<String> refused = get("/orders/1");

    assertThat(refused.statusCode()).isEqualTo(418);
    assertThat(refused.body()).isEqualTo("later");
    assertThat(refused.headers().firstValue("Retry-After")).hasValue("2");
  }

  @Test
  void responsesWithoutABody_exitOnce() throws Exception {
    assertThat(get("/empty").statusCode()).isEqualTo(204);
    HttpResponse<Void> head = client.send(HttpRequest.newBuilder(server.base().resolve("/orders/1"))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), BodyHandlers.discarding());
    app.awaitFinished(1);

    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(stats("GET /empty").successQps()).isEqualTo(1);
    assertThat(stats(ORDERS).successQps()).as("a HEAD is guarded as its GET").isEqualTo(1);
    assertThat(engine.inboundStats().concurrency()).isZero();
  }

  @Test
  void manyRequests_leaveEveryGaugeAtZero() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf(ORDERS, List.of(FlowRule.qps(ORDERS, 5))));
    for (int i = 0; i < 8; i++) {
      get("/orders/" + i);
    }
    get("/status/500");

    assertThat(stats(ORDERS).concurrency()).isZero();
    assertThat(stats(ORDERS).successQps()).isEqualTo(5);
    assertThat(engine.inboundStats().concurrency()).isZero();
    assertThat(engine.inboundStats().successQps()).isEqualTo(6);
  }
}
