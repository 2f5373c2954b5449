package dev.guard.redis;

import dev.guard.api.rule.FlowRule;
import dev.guard.spi.TokenService;
import dev.guard.testing.Await;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Requests the Redis tests make the same way: the first answer, and instances racing. */
final class TokenRequests {

  private TokenRequests() {}

  /**
   * Asks until the service answers (it connects in the background), for at most 30 s: a JVM
   * started by a test on a busy machine can take several seconds to connect.
   */
  static TokenService.Result firstAnswer(RedisTokenService service, FlowRule rule) {
    return Await.value("an answer other than FAILED for " + rule.resource() + " (the service "
        + "connects in the background)", Duration.ofSeconds(30),
        () -> service.requestToken(rule, 1, false),
        result -> result.status() != TokenService.Result.Status.FAILED);
  }

  /**
   * Builds a service for the token-service contract, on the test's manual clock (windows, leases,
   * instance expiry), and waits until it is connected (at most 10 s).
   */
  static RedisTokenService connected(RedisTokenService.Builder builder, ManualClock clock,
      int maxRequestsPerSecond) {
    if (maxRequestsPerSecond > 0) {
      builder.maxRequestsPerSecond(maxRequestsPerSecond);
    }
    RedisTokenService service = builder.clock(clock).windowClock(clock)
        .requestTimeout(Duration.ofSeconds(1)) // the machine is shared: count decisions only
        .build();
    Await.until("the service to connect in the background and list itself for flow 'contract'",
        Duration.ofSeconds(10), () -> !service.instances("contract").isEmpty());
    return service;
  }

  /**
   * What racing instances were answered.
   *
   * @param ok requests answered OK
   * @param failed requests answered neither OK nor BLOCKED
   */
  record Race(int ok, int failed) {}

  /** Each service asks {@code callsEach} times for one permit, all on their own threads at once. */
  static Race race(List<RedisTokenService> services, FlowRule rule, int callsEach)
      throws InterruptedException {
    return race(services, services.stream().map(s -> rule).toList(), callsEach);
  }

  /** Like {@link #race(List, FlowRule, int)}, each service with its own version of the rule. */
  static Race race(List<RedisTokenService> services, List<FlowRule> rules, int callsEach)
      throws InterruptedException {
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < services.size(); i++) {
      RedisTokenService service = services.get(i);
      FlowRule rule = rules.get(i);
      Thread thread = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int call = 0; call < callsEach; call++) {
          TokenService.Result.Status status = service.requestToken(rule, 1, false).status();
          if (status == TokenService.Result.Status.OK) {
            ok.incrementAndGet();
          } else if (status != TokenService.Result.Status.REFUSED) {
            failed.incrementAndGet();
          }
        }
      });
      thread.start();
      threads.add(thread);
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join(TimeUnit.SECONDS.toMillis(60));
    }
    return new Race(ok.get(), failed.get());
  }
}
