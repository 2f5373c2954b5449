package dev.guard.dashboard;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource.ContextScope;
import dev.guard.rules.RuleFormat;
import dev.guard.testkit.ManualClock;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Draws the dashboard's pictures in docs/ from the current build: {@code dashboard.png}, the page
 * of the resource {@code checkout} after five minutes of shop traffic and one rule edit, and
 * {@code fleet.png}, the fleet page of three instances sharing a real redis-server. Traffic runs on
 * a manual clock whose reading starts at the given time, so the pages show real dates and the
 * figures are the same on every run; the browser is the system's headless Chromium, as in
 * {@link DashboardBrowserTest}. Each picture is taken only once the page shows what the traffic
 * made (every refusal kind, both revisions, three instances that agree), so a page that cannot
 * show it fails here instead of producing a wrong picture. bench/pictures.sh runs it:
 *
 * <pre>{@code
 * java -cp "$GUARD_DASHBOARD_TEST_CLASS_PATH" dev.guard.dashboard.DocsPictures docs 2026-12-07T14:00:00Z
 * }</pre>
 */
public final class DocsPictures {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final int SECONDS = 300;

  private DocsPictures() {}

  /**
   * Writes both pictures.
   *
   * @param args the directory to write into, and the wall time the traffic starts at (ISO-8601)
   * @throws Exception if a page does not show what it should, or a picture cannot be written
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: DocsPictures DIRECTORY START (e.g. docs "
          + "2026-12-07T14:00:00Z), was " + List.of(args));
    }
    if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
      throw new IllegalStateException("the pictures need " + CHROMIUM + " and " + CHROMEDRIVER
          + ": apt-get install chromium chromium-driver");
    }
    Path dir = Path.of(args[0]);
    Instant start = Instant.parse(args[1]);
    Files.createDirectories(dir);
    resourcePage(dir.resolve("dashboard.png"), start);
    fleetPage(dir.resolve("fleet.png"), start.plus(Duration.ofMinutes(SECONDS / 60)));
  }

  private static ManualClock clockAt(Instant wallTime) {
    return ManualClock.startingAt(
        Math.addExact(Math.multiplyExact(wallTime.getEpochSecond(), 1_000_000_000L), wallTime.getNano()));
  }

  // ---- docs/dashboard.png

  private static void resourcePage(Path picture, Instant start) throws Exception {
    try (Fixture shop = new Fixture(clockAt(start), b -> b);
        Browser browser = new Browser(1280, 1500)) {
      shop.engine.apply(RuleSet.of(List.of(
          FlowRule.qps("checkout", 40), PerValueRule.qps("checkout", 0, 5),
          OriginRule.deny("checkout", "scraper"), CircuitBreakerRule.errorRatio("checkout", 0.5),
          FlowRule.qps("search", 50))));
      URI login = shop.server.browserUri();
      Deque<Entry> running = new ArrayDeque<>();
      for (int second = 0; second < SECONDS; second++) {
        if (second == 170) { // a sale starts: an operator raises checkout's limit on the dashboard
          raiseCheckout(shop, login);
        }
        shop.clock.advanceMillis(25);
        endAll(running); // the long calls of the second before end
        shopSecond(shop, second);
        shop.clock.advanceMillis(990 - shop.engine.timeMs() % 1000);
        for (int i = 0; i < 3 + second % 4 + (second / 40) % 3; i++) { // still running at the second's end
          try {
            running.push(shop.engine.resource("checkout").enter("u-" + (1100 + i)));
          } catch (RefusedException refused) {
            // counted by the engine
          }
        }
        shop.clock.advanceMillis(1000 - shop.engine.timeMs() % 1000);
        shop.engine.recordMetrics();
      }
      shop.clock.advanceMillis(25);
      endAll(running);
      shopSecond(shop, SECONDS);

      browser.driver.get(login.toString());
      browser.wait.until(ExpectedConditions.elementToBeClickable(By.linkText("checkout"))).click();
      browser.wait.until(ExpectedConditions.numberOfElementsToBe(
          By.cssSelector("#byKind tbody tr"), RefusedException.Kind.values().length));
      for (String kind : new String[] {"flow", "per-value", "origin"}) {
        browser.wait.until(d -> !"0".equals(d.findElement(By.cssSelector(
            "#byKind tr[data-key=" + kind + "] td:nth-child(2)")).getText()));
      }
      browser.wait.until(ExpectedConditions.numberOfElementsToBe(
          By.cssSelector("#history tbody tr"), 2));
      browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(
          By.cssSelector("#rules tbody"), "\"qps\":45"));
      browser.wait.until(d -> {
        String total = d.findElement(By.id("calls")).getDomAttribute("data-pass-total");
        return total != null && Long.parseLong(total) > 0;
      });
      browser.save(picture);
    }
  }

  /** Closes the entries, the last opened first (they are nested in one context). */
  private static void endAll(Deque<Entry> running) {
    while (!running.isEmpty()) {
      running.pop().close();
    }
  }

  /** One second of the shop: web and mobile callers, one noisy user, now and then a scraper. */
  private static void shopSecond(Fixture shop, int second) {
    int load = 46 + (int) Math.round(14 * Math.sin(second / 23.0)) + second % 5;
    int slow = second >= 200 && second < 235 ? 5 : 0; // a slow spell of the payment provider
    for (int i = 0; i < load; i++) {
      String origin = second % 15 == 7 && i < 3 ? "scraper" : i % 3 == 0 ? "mobile" : "web";
      String user = i % 6 == 2 ? "u-1042" : "u-" + (1000 + (second * 7 + i) % 40);
      checkout(shop, origin, user, 2 + (second + i) % 5 + slow);
    }
    shop.call("search", 20 + second % 9);
  }

  /** A call of checkout from an origin for a user that takes {@code millis} when admitted. */
  private static void checkout(Fixture shop, String origin, String user, int millis) {
    try (ContextScope context =
            shop.engine.resource("checkout").context("shop", origin).openContext();
        Entry call = shop.engine.resource("checkout").enter(user)) {
      shop.clock.advanceMillis(millis);
    } catch (RefusedException refused) {
      // counted by the engine, shown by the page
    }
  }

  private static void raiseCheckout(Fixture shop, URI login) {
    String token = login.getQuery().substring("token=".length());
    String rules = RuleFormat.write(RuleSet.of(List.of(
        FlowRule.qps("checkout", 45), PerValueRule.qps("checkout", 0, 5),
        OriginRule.deny("checkout", "scraper"), CircuitBreakerRule.errorRatio("checkout", 0.5),
        FlowRule.qps("search", 50))));
    HttpResponse<String> put = shop.send(shop.request("api/rules")
        .header("Authorization", "Bearer " + token).header("X-Guard-Dashboard", "1")
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(rules)));
    if (put.statusCode() != 200) {
      throw new IllegalStateException("the rule edit answered " + put.statusCode() + ": " + put.body());
    }
  }

  // ---- docs/fleet.png

  private static final String[] PODS = {"shop-7d9f4c-x2k4p", "shop-7d9f4c-m8q7d", "shop-7d9f4c-r5t9w"};

  private static void fleetPage(Path picture, Instant start) throws Exception {
    try (FleetWorld fleet = new FleetWorld(clockAt(start), PODS.length, i -> PODS[i],
            i -> "shop " + (i + 1), b -> b);
        Browser browser = new Browser(1100, 640)) {
      fleet.sources.get(0).write(RuleSet.of(List.of(
          FlowRule.qps("checkout", 40), FlowRule.qps("search", 50))));
      for (int i = 0; i < PODS.length; i++) {
        fleet.nextApplied(i);
      }
      for (int second = 0; second < 20; second++) {
        fleetSecond(fleet, second);
      }
      URI login = fleet.server.browserUri();
      String token = login.getQuery().substring("token=".length());
      HttpResponse<String> put = fleet.putRules(token, RuleSet.of(List.of(
          FlowRule.qps("checkout", 45), FlowRule.qps("search", 50))));
      if (put.statusCode() != 200) {
        throw new IllegalStateException("the rule edit answered " + put.statusCode() + ": " + put.body());
      }
      fleet.nextApplied(1);
      fleet.nextApplied(2);
      for (int second = 20; second < 30; second++) {
        fleetSecond(fleet, second);
      }

      browser.driver.get(login.toString());
      browser.wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("fleetLink"))).click();
      browser.wait.until(ExpectedConditions.numberOfElementsToBe(
          By.cssSelector("#instances tr[data-alive=true]"), PODS.length));
      browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(
          By.id("agreement"), "All 3 alive instances apply the same rules."));
      for (String pod : PODS) {
        browser.wait.until(d -> !d.findElement(By.cssSelector(
            "#instances tr[data-id=" + pod + "] td.applied")).getText().contains("—"));
      }
      browser.wait.until(ExpectedConditions.presenceOfElementLocated(
          By.cssSelector("tr.fleetRow[data-resource=checkout]")));
      browser.save(picture);
    }
  }

  /** One second of three instances behind a load balancer that favours the first. */
  private static void fleetSecond(FleetWorld fleet, int second) throws InterruptedException {
    long begin = fleet.engines.get(0).timeMs();
    for (int i = 0; i < PODS.length; i++) {
      GuardEngine engine = fleet.engines.get(i);
      int load = 52 - 9 * i + (int) Math.round(6 * Math.sin((second + 4 * i) / 3.0));
      for (int c = 0; c < load; c++) {
        call(fleet, engine, "checkout", c % 4 == 0 ? 1 + (c + second) % 5 + 2 * i : 0);
      }
      for (int c = 0; c < 12 + 4 * i + second % 3; c++) {
        call(fleet, engine, "search", c % 2);
      }
    }
    fleet.clock.advanceMillis(1000 - (fleet.engines.get(0).timeMs() - begin) % 1000);
    fleet.awaitParked();
  }

  /** A call of an instance's resource that takes {@code millis} when admitted. */
  private static void call(FleetWorld fleet, GuardEngine engine, String resource, int millis) {
    try (Entry call = engine.resource(resource).enter()) {
      fleet.clock.advanceMillis(millis);
    } catch (RefusedException refused) {
      // counted by the engine
    }
  }

  // ---- the browser

  /** Headless Chromium through the system's chromedriver, with a window of the picture's size. */
  private static final class Browser implements AutoCloseable {

    final ChromeDriver driver;
    final WebDriverWait wait;

    Browser(int width, int height) {
      ChromeOptions options = new ChromeOptions();
      options.setBinary(CHROMIUM.toFile());
      options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
          "--window-size=" + width + "," + height, "--disable-gpu", "--hide-scrollbars");
      driver = new ChromeDriver(new ChromeDriverService.Builder()
          .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build(), options);
      wait = new WebDriverWait(driver, Duration.ofSeconds(30));
      wait.ignoring(StaleElementReferenceException.class); // the pages redraw every second
    }

    /** Makes the window as tall as the page, then saves what it shows. */
    void save(Path picture) throws Exception {
      JavascriptExecutor page = driver;
      long content = (Long) page.executeScript("return document.documentElement.scrollHeight;");
      long inner = (Long) page.executeScript("return window.innerHeight;");
      Dimension size = driver.manage().window().getSize();
      driver.manage().window().setSize(
          new Dimension(size.getWidth(), (int) (size.getHeight() + content - inner)));
      Files.write(picture, driver.getScreenshotAs(OutputType.BYTES));
      System.out.println("wrote " + picture);
    }

    @Override
    public void close() {
      driver.quit();
    }
  }
}
