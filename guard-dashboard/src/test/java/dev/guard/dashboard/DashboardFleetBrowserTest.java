package dev.guard.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import java.io.File;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The fleet page in headless Chromium (the system's browser and chromedriver, as in {@link
 * DashboardBrowserTest}): three instances of one JVM on a real redis-server and one manual clock,
 * so every figure the page must show is known exactly; the test waits only for the page to show
 * it (it refreshes every second).
 */
@Tag("process")
class DashboardFleetBrowserTest {

  private FleetWorld world;
  private ChromeDriver browser;
  private WebDriverWait wait;

  @BeforeEach
  void start() throws Exception {
    Path chromium = Path.of("/usr/bin/chromium");
    Path driver = Path.of("/usr/bin/chromedriver");
    assertThat(Files.isExecutable(chromium) && Files.isExecutable(driver))
        .as("the browser test needs chromium and chromium-driver (.ci/run installs them)")
        .isTrue();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
        "--window-size=1280,900", "--disable-gpu");
    browser = new ChromeDriver(new ChromeDriverService.Builder()
        .usingDriverExecutable(driver.toFile()).usingAnyFreePort().build(), options);
    wait = new WebDriverWait(browser, Duration.ofSeconds(15));
    wait.ignoring(StaleElementReferenceException.class);
    world = new FleetWorld(3, b -> b);
  }

  @AfterEach
  void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (world != null) {
      world.close();
    }
  }

  private void awaitAttribute(String css, String name, String value) {
    new WebDriverWait(browser, Duration.ofSeconds(15))
        .ignoring(StaleElementReferenceException.class)
        .withMessage(() -> css + " " + name + " is not " + value)
        .until(d -> value.equals(d.findElement(By.cssSelector(css)).getDomAttribute(name)));
  }

  private void awaitText(String css, String text) {
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(css), text));
  }

  @Test
  void fleetPage_showsInstancesSumsDisagreementAndWhenEachAppliedAnEdit() throws Exception {
    world.sources.get(0).write(RuleSet.of(FlowRule.qps("checkout", 5)));
    for (int i = 0; i < 3; i++) {
      world.nextApplied(i);
    }
    world.call(0, "checkout", 8);
    world.call(1, "checkout", 6);
    world.call(2, "checkout", 2);
    world.call(1, "search", 3);
    world.beat();

    // from the resource list to the fleet page
    URI login = world.server.browserUri();
    browser.get(login.toString());
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("fleetLink"))).click();
    wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#instances tbody tr"), 3));
    awaitText("#agreement", "All 3 alive instances apply the same rules.");
    wait.until(ExpectedConditions.numberOfElementsToBe(
        By.cssSelector("#instances tr[data-alive=true]"), 3));
    // the page redraws its tables every second, so each figure is read the way the wait reads it
    awaitAttribute("tr.fleetRow[data-resource=checkout]", "data-pass", "12");
    awaitAttribute("tr.fleetRow[data-resource=checkout]", "data-refused", "4");
    awaitAttribute("tr.instanceRow[data-resource=checkout][data-instance=shop-a]", "data-pass", "5");
    awaitAttribute("tr.instanceRow[data-resource=checkout][data-instance=shop-b]",
        "data-refused", "1");
    awaitAttribute("tr.fleetRow[data-resource=search]", "data-pass", "3");
    awaitText("#instances tr[data-id=shop-a]", "shop a (this one)");

    // one instance applies rules of its own: it is marked
    world.engines.get(2).apply(RuleSet.of(FlowRule.qps("checkout", 50)));
    world.beat();
    wait.until(ExpectedConditions.presenceOfElementLocated(
        By.cssSelector("#instances tr[data-id=shop-c][data-agrees=false]")));
    awaitText("#agreement", "1 of 3 alive instances apply other rules");
    awaitText("#instances tr[data-id=shop-c]", "differs");

    // an edit through this dashboard goes through the Redis rule source to every instance
    String token = login.getQuery().substring("token=".length());
    HttpResponse<String> put = world.putRules(token, RuleSet.of(FlowRule.qps("checkout", 4)));
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    world.nextApplied(1);
    world.nextApplied(2);
    String appliedAt = Instant.ofEpochMilli(world.clock.wallTime().toEpochMilli()).toString()
        .replace("T", " ").replace("Z", " UTC");
    world.beat();
    awaitText("#agreement", "All 3 alive instances apply the same rules.");
    for (String id : new String[] {"shop-a", "shop-b", "shop-c"}) {
      awaitText("#instances tr[data-id=" + id + "] td.applied", appliedAt);
    }
    File shot = browser.getScreenshotAs(OutputType.FILE);
    Path target = Path.of("target", "fleet-screenshot.png");
    Files.createDirectories(target.getParent());
    Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);

    // an instance that leaves disappears from the page
    world.leave(2);
    wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#instances tbody tr"), 2));
  }
}
