package dev.guard.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.ContextScope;
import dev.guard.api.Entry;
import dev.guard.api.PeriodStats;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The pages in a real browser: headless Chromium from the system packages, driven through the
 * system's chromedriver (Selenium never downloads a driver or a browser here). Traffic is made on
 * a manual clock, so every figure the page must show is known exactly; the test only waits for
 * the page to show it (the pages refresh every second).
 */
@Tag("process")
class DashboardBrowserTest {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private Fixture fixture = new Fixture(b -> b);
  private ChromeDriver browser;
  private WebDriverWait wait;

  @BeforeEach
  void startBrowser() {
    assertThat(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER))
        .as("the browser test needs %s and %s: install them with"
            + " `apt-get install chromium chromium-driver` (.ci/run does)", CHROMIUM, CHROMEDRIVER)
        .isTrue();
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
        "--window-size=1280,1500", "--disable-gpu");
    browser = new ChromeDriver(service, options);
    wait = new WebDriverWait(browser, Duration.ofSeconds(15));
    wait.ignoring(StaleElementReferenceException.class); // the pages redraw every second
  }

  @AfterEach
  void stop() {
    if (browser != null) {
      browser.quit();
    }
    fixture.close();
  }

  @Test
  void dashboard_listChartsEditAndRollBack() throws IOException {
    fixture.engine.apply(RuleSet.of(List.of(
        FlowRule.qps("checkout", 40), CircuitBreakerRule.errorRatio("checkout", 0.5),
        FlowRule.qps("search", 1))));
    long[] checkout = traffic();
    long checkoutPasses = checkout[0];

    // the resource list, sorted by refusals
    browser.get(fixture.server.browserUri().toString());
    wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-name=search]")));
    click(By.cssSelector("button.sort[data-sort=refused]"));
    wait.until(d -> firstRow().equals("search"));
    click(By.cssSelector("button.sort[data-sort=passed]"));
    wait.until(d -> firstRow().equals("checkout"));

    // a resource's live chart follows the traffic without reloading the page
    click(By.linkText("checkout"));
    wait.until(d -> chartTotal("passTotal") == checkoutPasses);
    ((JavascriptExecutor) browser).executeScript("window.sameDocument = true;");
    fixture.call("checkout", 7);
    fixture.advanceSeconds(1);
    wait.until(d -> chartTotal("passTotal") == checkoutPasses + 7);
    assertThat(((JavascriptExecutor) browser).executeScript("return window.sameDocument;"))
        .isEqualTo(true);

    // a rejected edit shows its error next to the field; a valid one applies at once
    WebElement qps = qpsInput();
    qps.clear();
    qps.sendKeys("-1");
    browser.findElement(By.id("save")).click();
    wait.until(ExpectedConditions.textMatches(
        By.cssSelector(".ruleRow[data-kind=flow] .field[data-field=qps] .error"),
        java.util.regex.Pattern.compile("must.*-1")));
    assertThat(fixture.engine.rules("checkout")).contains(FlowRule.qps("checkout", 40));
    qps = qpsInput();
    qps.clear();
    qps.sendKeys("2");
    browser.findElement(By.id("save")).click();
    // "saved: revision #n", not the "not saved: ..." still shown from the refused save
    wait.until(ExpectedConditions.textMatches(By.id("saveStatus"),
        java.util.regex.Pattern.compile("^saved")));
    assertThat(fixture.call("checkout", 5)).isEqualTo(2);
    fixture.advanceSeconds(1);
    wait.until(ExpectedConditions.textToBe(
        By.cssSelector("#byKind tr[data-key=flow] td:nth-child(2)"),
        String.valueOf(minuteFlowRefusals())));
    wait.until(d -> chartTotal("refusedTotal") == checkout[1] + 3);
    wait.until(ExpectedConditions.presenceOfElementLocated(
        By.cssSelector("#byOrigin tr[data-key=mobile]")));
    wait.until(ExpectedConditions.textToBePresentInElementLocated(
        By.cssSelector("#rules tbody"), "\"qps\":2"));
    saveScreenshot();

    // a form read before another change is not saved over it
    fixture.engine.apply(RuleSet.of(List.of(
        FlowRule.qps("checkout", 5), CircuitBreakerRule.errorRatio("checkout", 0.5),
        FlowRule.qps("search", 1))));
    qps = qpsInput();
    qps.clear();
    qps.sendKeys("3");
    browser.findElement(By.id("save")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("saveStatus"),
        "the rules changed since they were read"));
    assertThat(fixture.engine.rules("checkout")).contains(FlowRule.qps("checkout", 5));

    // roll back to the rules applied at startup
    click(By.cssSelector("button.rollback[data-revision='1']"));
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("saveStatus"),
        "rolled back to #1"));
    assertThat(fixture.engine.rules("checkout")).contains(FlowRule.qps("checkout", 40));

    // signing out ends the session: its cookie no longer makes changes
    String session = browser.manage().getCookies().stream()
        .filter(cookie -> cookie.getName().startsWith("guard-dashboard-"))
        .map(cookie -> cookie.getName() + "=" + cookie.getValue()).findFirst().orElseThrow();
    assertThat(rollBackWith(session)).as("signed in").isEqualTo(404);
    click(By.id("logout"));
    wait.until(ExpectedConditions.presenceOfElementLocated(By.name("token")));
    assertThat(browser.manage().getCookies()).noneMatch(
        cookie -> cookie.getName().startsWith("guard-dashboard-"));
    assertThat(rollBackWith(session)).as("signed out").isEqualTo(401);
  }

  /** A roll-back to a revision that does not exist: 404 when the session may change rules. */
  private int rollBackWith(String session) {
    return fixture.send(fixture.request("api/history/rollback?revision=999")
        .header("Cookie", session).header("X-Guard-Dashboard", "1")
        .POST(java.net.http.HttpRequest.BodyPublishers.noBody())).statusCode();
  }

  /**
   * A minute of varied traffic from two origins, with some slow calls; returns the passes and the
   * refusals of checkout.
   */
  private long[] traffic() {
    long passes = 0;
    long refusals = 0;
    for (int second = 0; second < 60; second++) {
      int load = 30 + (int) (15 * Math.sin(second / 6.0)) + second % 7;
      try (ContextScope origin =
          fixture.engine.resource("web").context("web", second % 3 == 0 ? "mobile" : "web").openContext()) {
        assertThat(origin.opened()).isTrue();
        int passed = fixture.call("checkout", load - 1);
        passes += passed;
        refusals += load - 1 - passed;
        fixture.call("search", 3 + second % 4);
        try (Entry slow = fixture.engine.resource("checkout").enter()) {
          passes++;
          fixture.clock.advanceMillis(20 + 15 * (second % 4));
        } catch (RefusedException refused) {
          refusals++;
        }
      }
      fixture.clock.advanceMillis(1000 - fixture.engine.timeMs() % 1000);
      if (second % 20 == 19) {
        fixture.engine.recordMetrics();
      }
    }
    return new long[] {passes, refusals};
  }

  /** The flow refusals of checkout in the last minute of closed seconds. */
  private long minuteFlowRefusals() {
    long to = fixture.engine.timeMs() / 1000 * 1000;
    return fixture.engine.metricsHistory("checkout", to - 60_000, to).stream()
        .mapToLong(PeriodStats::flowRefused).sum();
  }

  /** Finds and clicks in one step, again if the page redrew the element in between. */
  private void click(By element) {
    wait.until(d -> {
      d.findElement(element).click();
      return true;
    });
  }

  private String firstRow() {
    Object name = ((JavascriptExecutor) browser).executeScript(
        "const row = document.querySelector('#resources tbody tr'); return row ? row.dataset.name : '';");
    return String.valueOf(name);
  }

  private long chartTotal(String attribute) {
    String value = browser.findElement(By.id("calls")).getDomAttribute("data-"
        + attribute.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT));
    return value == null ? -1 : Long.parseLong(value);
  }

  private WebElement qpsInput() {
    return wait.until(ExpectedConditions.elementToBeClickable(
        By.cssSelector(".ruleRow[data-kind=flow] .field[data-field=qps] input")));
  }

  private void saveScreenshot() throws IOException {
    File shot = browser.getScreenshotAs(OutputType.FILE);
    Path target = Path.of("target", "dashboard-screenshot.png");
    Files.createDirectories(target.getParent());
    Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
  }
}
