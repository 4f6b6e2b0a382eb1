package dev.gpurent.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.io.File;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real (headless) Chromium against the whole service, started as ServiceTest
 * starts it: fake vendors on loopback serving the recorded RunPod and Vast payloads, plus the
 * guide's reference sheet. Picks presets, ranks live over the WebSocket, watches the table follow a
 * price change that flips the order, downloads the CSV and switches to Chinese. Screenshots go to
 * target/dashboard-*.png. Needs the Debian packages chromium and chromium-driver (.ci/run installs
 * them); without them the test is skipped, saying so.
 */
class DashboardBrowserTest {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Duration WAIT = Duration.ofSeconds(10);
  static final java.util.logging.Logger SELENIUM_LOG = java.util.logging.Logger.getLogger("org.openqa.selenium");

  static Vertx vertx;
  static FakeVendorServer fake;
  static Bootstrap.Running service;
  static WebClient client;
  static ChromeDriver driver;
  static Path profile;
  @TempDir static Path root;
  @TempDir static Path downloads;

  static final boolean BROWSER = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
  static final String NO_BROWSER = "Chromium not installed: run .ci/run, which installs Debian packages chromium and"
      + " chromium-driver (needs " + CHROMIUM + " and " + CHROMEDRIVER + ")";

  @BeforeAll
  static void start() throws Exception {
    if (!BROWSER) {
      System.err.println("DashboardBrowserTest skipped: " + NO_BROWSER);
      return;
    }
    vertx = Vertx.vertx();
    fake = new FakeVendorServer(vertx)
        .serve("runpod", ServiceTest.DATA.resolve("runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json"))
        .serve("vast", ServiceTest.DATA.resolve("skypilot-catalog-format/anycloud-sh/vast/vms.gpu.csv"));
    ServiceTest.await(fake.start());
    ServiceTest.writeRoot(root, fake);
    for (String v : List.of("runpod", "vast")) {  // a busy machine must not time the loopback vendors out
      Path def = root.resolve("adapters/" + v + ".yaml");
      Files.writeString(def, Files.readString(def).replace("\"timeout\" : \"2s\"", "\"timeout\" : \"20s\""));
    }
    service = ServiceTest.await(new Bootstrap(root, Map.of("GPURENT_ADMIN_TOKEN", ServiceTest.TOKEN), Clock.systemUTC()).start());
    client = WebClient.create(vertx);
    ServiceTest.await(client.post(service.port(), "127.0.0.1", "/api/admin/refresh").bearerTokenAuthentication(ServiceTest.TOKEN).send());
    driver = startChromium();
  }

  /** The system's Chromium and chromedriver, named explicitly: Selenium Manager never downloads anything. */
  static ChromeDriver startChromium() throws Exception {
    // Selenium warns that it has no CDP bindings for this Chromium version: the test uses none
    SELENIUM_LOG.setLevel(java.util.logging.Level.SEVERE);
    System.setProperty("SE_AVOID_STATS", "true");
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
    profile = Files.createTempDirectory("gpurent-chromium-");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toString());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-extensions", "--disable-default-apps", "--lang=en-US", "--window-size=1400,1500",
        "--user-data-dir=" + profile);
    options.setExperimentalOption("prefs", Map.of("download.default_directory", downloads.toString(),
        "download.prompt_for_download", false, "intl.accept_languages", "en-US,en"));
    ChromeDriverService chromedriver = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().withSilent(true).build();
    ChromeDriver chrome = new ChromeDriver(chromedriver, options);
    // keeps every WebSocket the page opens, so that the test can drop the connection
    chrome.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source",
        "window.__sockets = []; window.WebSocket = class extends window.WebSocket {"
            + " constructor(...a) { super(...a); window.__sockets.push(this); } };"));
    return chrome;
  }

  /** Reported as a skipped test, with the reason, when the browser is missing. */
  @BeforeEach
  void needsChromium() {
    assumeTrue(BROWSER, NO_BROWSER);
  }

  @AfterAll
  static void stop() throws Exception {
    if (driver != null) driver.quit();
    if (service != null) ServiceTest.await(service.close());
    if (vertx != null) ServiceTest.await(vertx.close());
    if (profile != null) {
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void ranks_live_follows_a_price_flip_downloads_csv_and_speaks_chinese() throws Exception {
    driver.get("http://127.0.0.1:" + service.port() + "/");
    WebDriverWait wait = new WebDriverWait(driver, WAIT);
    wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
    wait.until(d -> new Select(d.findElement(By.id("preset"))).getOptions().size() > 1);
    assertEquals("en", driver.findElement(By.tagName("html")).getAttribute("lang"));

    // the vendor freshness panel: all three vendors fetched on loopback
    wait.until(d -> d.findElements(By.cssSelector("#vendors tbody tr[data-vendor]")).size() == 3);
    for (String v : List.of("guide-reference", "runpod", "vast")) {
      WebElement row = driver.findElement(By.cssSelector("#vendors tbody tr[data-vendor='" + v + "']"));
      assertEquals("fresh", row.getAttribute("data-freshness"),
          () -> v + ": " + driver.findElement(By.id("vendors")).getText());
    }
    assertEquals("147", driver.findElement(By.cssSelector("#vendors tr[data-vendor='runpod'] td.num")).getText());

    // the guide's template: the guide-reference sheet reproduces the guide's 5000 a month
    new Select(driver.findElement(By.id("preset"))).selectByValue("guide-template");
    assertTrue(driver.findElement(By.id("scenario-json")).getAttribute("value").contains("\"guide template (5.1)\""));
    driver.findElement(By.id("rank-live")).click();
    wait.until(d -> "live".equals(d.findElement(By.id("status")).getAttribute("data-state"))
        && !d.findElements(By.cssSelector("#ranking tbody tr[data-vendor]")).isEmpty());
    WebElement guide = driver.findElement(By.cssSelector("#ranking tbody tr[data-vendor='guide-reference']"));
    assertEquals("1", guide.getAttribute("data-rank"));
    assertEquals("5000.00", guide.findElement(By.cssSelector("td.monthly")).getAttribute("data-value"));
    assertEquals("5,000.00", guide.findElement(By.cssSelector("td.monthly")).getText());
    assertEquals("60,000.00", guide.findElement(By.cssSelector("td.horizon")).getText());
    assertEquals("Monthly total (CNY)", driver.findElement(By.id("th-monthly")).getText());
    // RunPod sells no A100 40GB SXM, so it is listed as not ranked, with the reason
    assertEquals("runpod: fine-tuning: no offer of a100-40g-sxm",
        driver.findElement(By.cssSelector("#unavailable li[data-vendor='runpod']")).getText());
    // the bill, as the guide's template lays it out
    guide.findElement(By.cssSelector("button.toggle")).click();
    WebElement bill = driver.findElement(By.cssSelector("tr[data-detail-for='guide-reference'] table.bill"));
    assertTrue(bill.isDisplayed());
    List<String> firstLine = bill.findElements(By.cssSelector(":scope > tbody > tr:first-child > td")).stream().map(WebElement::getText).toList();
    assertEquals(List.of("inference GPU", "NVIDIA GeForce RTX 4090 (rtx-4090, cn)", "2", "1,500.00 / month", "3,000.00", "monthly"),
        firstLine);
    assertEquals("5,000.00", bill.findElement(By.cssSelector("tfoot td.total")).getText());
    assertFalse(driver.findElements(By.cssSelector("#chart canvas")).isEmpty(), "the bar chart is drawn");
    screenshot("dashboard-guide.png");

    // a bad field comes back from the API, named, next to the editor
    String goodJson = driver.findElement(By.id("scenario-json")).getAttribute("value");
    setEditor(goodJson.replace("\"peakQps\": 3", "\"peakQps\": -1"));
    driver.findElement(By.id("rank-live")).click();
    wait.until(d -> d.findElement(By.id("field-errors")).isDisplayed());
    assertEquals("workloads[0].peakQps must be > 0, got -1",
        driver.findElement(By.cssSelector("#field-error-list li[data-field='workloads[0].peakQps']")).getText());
    assertEquals("true", driver.findElement(By.id("scenario-json")).getAttribute("aria-invalid"));
    screenshot("dashboard-errors.png");

    // the small team's plan: RunPod takes part; a hundredfold price cut at RunPod flips the order live
    new Select(driver.findElement(By.id("preset"))).selectByValue("team-small");
    driver.findElement(By.id("rank-live")).click();
    wait.until(d -> rankedRows() == 3);
    assertFalse(driver.findElement(By.id("field-errors")).isDisplayed());
    String before = firstVendor().orElseThrow();
    assertEquals("guide-reference", before);
    assertEquals("1800.00", monthly("guide-reference"));
    assertEquals("2279.30", monthly("runpod"));
    screenshot("dashboard-before.png");

    double factor = before.equals("runpod") ? 100 : 0.01;
    fake.rewrite("runpod", body -> ServiceTest.scale(body, factor));
    try {
      assertEquals(200, ServiceTest.await(client.post(service.port(), "127.0.0.1", "/api/admin/refresh?vendor=runpod")
          .bearerTokenAuthentication(ServiceTest.TOKEN).send()).statusCode());
      wait.until(d -> firstVendor().filter(v -> !v.equals(before)).isPresent());
      String after = firstVendor().orElseThrow();
      assertNotEquals(before, after);
      assertEquals("runpod", after);
      assertTrue(new BigDecimal(monthly("runpod")).compareTo(new BigDecimal("1800.00")) < 0, monthly("runpod"));
      assertEquals("2", driver.findElement(By.cssSelector("#ranking tbody tr[data-vendor='guide-reference']")).getAttribute("data-rank"));
      assertEquals("live", driver.findElement(By.id("status")).getAttribute("data-state"));
      driver.findElement(By.cssSelector("#ranking tbody tr[data-vendor='runpod'] button.toggle")).click();
      assertTrue(driver.findElement(By.cssSelector("tr[data-detail-for='runpod'] ul.fx")).getText().startsWith("1 USD = 7.24049"),
          "RunPod's USD prices are converted to CNY, and the rate is shown");
      screenshot("dashboard-after.png");

      // the service forgets the scenario (as after a restart) and the connection drops: the
      // dashboard reconnects with backoff, finds its scenario gone, registers it again and is live
      String oldId = driver.findElement(By.id("ranking")).getAttribute("data-scenario");
      assertEquals(204, ServiceTest.await(client.delete(service.port(), "127.0.0.1", "/api/scenarios/" + oldId).send()).statusCode());
      driver.executeScript("window.__sockets.forEach(s => s.close());");
      new WebDriverWait(driver, WAIT, Duration.ofMillis(50))
          .until(d -> "reconnecting".equals(d.findElement(By.id("status")).getAttribute("data-state")));
      assertTrue(driver.findElement(By.id("status")).getText().startsWith("Connection lost; reconnecting in "),
          driver.findElement(By.id("status")).getText());
      wait.until(d -> "live".equals(d.findElement(By.id("status")).getAttribute("data-state"))
          && !oldId.equals(d.findElement(By.id("ranking")).getAttribute("data-scenario")) && rankedRows() == 3);
      assertEquals(2L, driver.executeScript("return window.__sockets.length;"));
      assertEquals("runpod", firstVendor().orElseThrow());

      // the CSV of the current scenario, saved through a Blob link
      driver.findElement(By.id("download-csv")).click();
      Path csv = new WebDriverWait(driver, WAIT).until(d -> csvIn(downloads));
      String text = Files.readString(csv, StandardCharsets.UTF_8);
      assertTrue(text.startsWith("\ufeffrank,vendor,item,spec,quantity,unit_price"), text);
      assertTrue(text.lines().skip(1).findFirst().orElseThrow().startsWith("1,runpod,inference GPU,"), text);

      // Chinese
      driver.findElement(By.id("lang-zh")).click();
      wait.until(d -> "zh-CN".equals(d.findElement(By.tagName("html")).getAttribute("lang")));
      List<String> headers = driver.findElements(By.cssSelector("#ranking thead th")).stream().map(WebElement::getText).toList();
      assertEquals(List.of("排名", "供应商", "月费用（CNY）", "合同期总额（12 个月）", "新鲜度", "节省"), headers.subList(0, 6));
      assertTrue(driver.findElement(By.id("status")).getText().startsWith("实时"), driver.findElement(By.id("status")).getText());
      assertEquals("供应商数据新鲜度", driver.findElement(By.id("vendors-title")).getText());
      assertEquals("新鲜", driver.findElement(By.cssSelector("#vendors tr[data-vendor='vast'] .badge")).getText().replace("●", "").trim());
      assertEquals("实时排名", driver.findElement(By.id("rank-live")).getText());
      assertEquals("runpod", firstVendor().orElseThrow());
      screenshot("dashboard-zh.png");

      // a phone-sized window: one column, nothing cut off
      driver.manage().window().setSize(new org.openqa.selenium.Dimension(420, 1500));
      // the chart is redrawn to the new width and the page does not scroll sideways
      wait.until(d -> (Boolean) driver.executeScript("const c = document.querySelector('#chart .uplot');"
          + " return document.getElementById('results').getBoundingClientRect().width < 420 && c != null"
          + " && c.getBoundingClientRect().right <= document.documentElement.clientWidth"
          + " && document.documentElement.scrollWidth <= document.documentElement.clientWidth;"));
      screenshot("dashboard-narrow.png");
    } finally {
      fake.rewrite("runpod", body -> ServiceTest.scale(body, 1 / factor));
    }
  }

  /** The vendor in the ranking table's first row (read in one script: live updates replace the rows). */
  static java.util.Optional<String> firstVendor() {
    return java.util.Optional.ofNullable((String) driver.executeScript(
        "const r = document.querySelector('#ranking tbody tr[data-vendor]'); return r ? r.dataset.vendor : null;"));
  }

  static int rankedRows() {
    return ((Number) driver.executeScript("return document.querySelectorAll('#ranking tbody tr[data-vendor]').length;")).intValue();
  }

  static String monthly(String vendor) {
    return (String) driver.executeScript("const r = document.querySelector(\"#ranking tbody tr[data-vendor='\" + arguments[0]"
        + " + \"'] td.monthly\"); return r ? r.dataset.value : null;", vendor);
  }

  static void setEditor(String text) {
    driver.executeScript("const t = document.getElementById('scenario-json'); t.value = arguments[0];"
        + "t.dispatchEvent(new Event('input', {bubbles: true}));", text);
  }

  static Path csvIn(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".csv")).findFirst().orElse(null);
    } catch (java.io.IOException e) {
      return null;
    }
  }

  static void screenshot(String name) throws Exception {
    Path target = Path.of("target", name);
    Files.createDirectories(target.getParent());
    Files.move(driver.getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
  }
}
