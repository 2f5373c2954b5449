package dev.guard.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.engine.GuardEngine;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

/** The dashboard's request workers come from its engine's thread factory. */
class Issue39DashboardThreadsTest {

  @Test
  void requestWorkers_runOnTheEnginesFactory() throws Exception {
    List<Thread> made = new CopyOnWriteArrayList<>();
    ThreadFactory factory = task -> {
      Thread thread = new Thread(task);
      made.add(thread);
      return thread;
    };
    GuardEngine engine = GuardEngine.builder().threads(factory).build();

    try (GuardDashboard.Server server = GuardDashboard.of(engine).start()) {
      HttpResponse<String> page = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(server.uri().resolve("api/resources")).build(),
          HttpResponse.BodyHandlers.ofString());

      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(made).extracting(Thread::getName).contains("guard-dashboard-1");
      assertThat(made).allSatisfy(thread -> assertThat(thread.isDaemon()).isTrue());
    } finally {
      engine.close();
    }
  }
}
