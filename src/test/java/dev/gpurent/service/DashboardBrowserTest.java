package dev.gpurent.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gpurent.Slow;
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
@Slow
class DashboardBrowserTest {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Duration WAIT = Duration.ofSeconds(10);
  static final Path MARKET = ServiceTest.DATA.resolve("market-observations/cherielilili-observations.2026-02-11_2026-05-31.csv");
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
    fake = ServiceTest.recordedVendors(vertx);
    ServiceTest.await(fake.start());
    ServiceTest.writeRoot(root, fake);
    importMarketHistory();
    for (String v : List.of("runpod", "vast")) {  // a busy machine must not time the loopback vendors out
      Path def = root.resolve("adapters/" + v + ".yaml");
      Files.writeString(def, Files.readString(def).replace("\"timeout\" : \"2s\"", "\"timeout\" : \"20s\""));
    }
    service = ServiceTest.await(new Bootstrap(root, Map.of("GPURENT_ADMIN_TOKEN", ServiceTest.TOKEN), Clock.systemUTC()).start());
    client = WebClient.create(vertx);
    ServiceTest.await(client.post(service.port(), "127.0.0.1", "/api/admin/refresh").bearerTokenAuthentication(ServiceTest.TOKEN).send());
    driver = startChromium();
  }

  /**
   * Months of daily market prices (one snapshot per date, 2026-02-11 to 2026-05-31) into the
   * root's store before the service starts, as `gpurent import-history FILE --root ROOT` does, for
   * the price history panel. Imported snapshots never seed the live quotes, so the ranking test
   * sees the same vendors either way.
   */
  static void importMarketHistory() {
    if (!Files.isRegularFile(MARKET)) {
      System.err.println("DashboardBrowserTest: no " + MARKET + ": the price history test will be skipped");
      return;
    }
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    long started = System.nanoTime();
    int status = dev.gpurent.Main.run(new java.io.PrintWriter(out, true), new java.io.PrintWriter(err, true),
        "import-history", MARKET.toString(), "--root", root.toString(), "--every", "1000");
    assertEquals(0, status, () -> out + "\n" + err);
    assertTrue(out.toString().contains("110 snapshots written"), out::toString);
    System.err.println("DashboardBrowserTest: import-history took " + (System.nanoTime() - started) / 1_000_000 + " ms");
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

    // the guide's template: the guide-reference sheet is no vendor, so it is shown beside the ranking...
    new Select(driver.findElement(By.id("preset"))).selectByValue("guide-template");
    assertTrue(driver.findElement(By.id("scenario-json")).getAttribute("value").contains("\"guide template (5.1)\""));
    driver.findElement(By.id("rank-live")).click();
    wait.until(d -> "live".equals(d.findElement(By.id("status")).getAttribute("data-state"))
        && !d.findElements(By.cssSelector("#unavailable p.reference-note")).isEmpty());
    assertEquals("Reference, not ranked: Guide reference prices (not a real vendor) at 5,000.00 CNY a month."
        + " #1 costs 41% more than the guide's reference (5000.00 CNY a month)",
        driver.findElement(By.cssSelector("#unavailable p.reference-note")).getText());
    assertTrue(driver.findElements(By.cssSelector("#ranking tbody tr[data-vendor='guide-reference']")).isEmpty());
    // Vast sells no load balancer: its plan says so on the row, and the bill line is the fallback's
    WebElement vast = driver.findElement(By.cssSelector("#ranking tbody tr[data-vendor='vast']"));
    assertEquals("1", vast.findElement(By.cssSelector("span.gap-flag")).getAttribute("data-gaps"));
    assertEquals("incomplete: 1 from a fallback", vast.findElement(By.cssSelector("span.gap-flag")).getText());
    // ...and ranked like one when the scenario asks for it: it reproduces the guide's 5000 a month
    setEditor(driver.findElement(By.id("scenario-json")).getAttribute("value").replaceFirst("\\{", "{\"includeReference\": true, "));
    driver.findElement(By.id("rank-live")).click();
    wait.until(d -> "live".equals(d.findElement(By.id("status")).getAttribute("data-state"))
        && !d.findElements(By.cssSelector("#ranking tbody tr[data-vendor='guide-reference']")).isEmpty());
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
    setEditor(driver.findElement(By.id("scenario-json")).getAttribute("value").replaceFirst("\\{", "{\"includeReference\": true, "));
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

  @Test
  void price_history_chart_of_imported_market_prices_with_per_gpu_prices_csv_and_changes() throws Exception {
    assumeTrue(Files.isRegularFile(MARKET), "no market observations at " + MARKET);
    long started = System.nanoTime();
    driver.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 1500));
    driver.get("http://127.0.0.1:" + service.port() + "/");
    WebDriverWait wait = new WebDriverWait(driver, WAIT);
    wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
    driver.findElement(By.id("lang-en")).click();  // the other test may have left Chinese in localStorage
    wait.until(d -> new Select(d.findElement(By.id("history-gpu"))).getOptions().size() > 1);

    // H100 SXM, on-demand (the defaults, picked as a user would)
    assertEquals("h100-sxm", new Select(driver.findElement(By.id("history-gpu"))).getFirstSelectedOption().getAttribute("value"));
    new Select(driver.findElement(By.id("history-gpu"))).selectByValue("h100-sxm");
    new Select(driver.findElement(By.id("history-billing"))).selectByValue("on-demand");
    wait.until(d -> "ok".equals(d.findElement(By.id("history")).getAttribute("data-state"))
        && !d.findElements(By.cssSelector("#history-chart canvas")).isEmpty()
        && !d.findElements(By.cssSelector("#history-legend tbody tr[data-vendor='lambda']")).isEmpty());
    assertTrue(driver.findElement(By.id("history-status")).getText().endsWith("2026-02-11 to 2026-05-31 · 110 snapshots"),
        driver.findElement(By.id("history-status")).getText());
    assertEquals("NVIDIA H100 SXM · on-demand · USD per GPU-hour · 8 of 37 vendors", driver.findElement(By.id("history-caption")).getText());
    // one line per vendor, at most 8, cheapest first: those quoted on 2026-05-31, then those last
    // seen in the 30 days before (dashed), by their last price
    List<String> lines = driver.findElements(By.cssSelector("#history-legend tbody tr[data-vendor]")).stream()
        .map(r -> r.getAttribute("data-vendor")).toList();
    assertEquals(8, lines.size(), lines::toString);
    assertEquals(List.of("crusoe", "lambda", "nebius", "runpod", "vast-ai"), lines.subList(0, 5).stream().sorted().toList(), lines::toString);
    assertEquals("nebius", lines.get(0), "nebius eu, 2.15 on 2026-05-31, is the cheapest there");
    assertEquals(List.of("hyperstack", "sesterce", "theta"), lines.subList(5, 8), lines::toString);
    assertEquals("swatch dashed", driver.findElement(By.cssSelector("#history-legend tr[data-vendor='theta'] .swatch")).getAttribute("class"));
    assertEquals("swatch", driver.findElement(By.cssSelector("#history-legend tr[data-vendor='lambda'] .swatch")).getAttribute("class"));
    assertEquals("vast.ai", driver.findElement(By.cssSelector("#history-legend tr[data-vendor='vast-ai'] th")).getText().trim(),
        "the provider's own spelling, from the snapshot");
    // the latest prices: lambda H100_SXM x1 in us at 4.19 on 2026-05-31 (CSV line 19890)
    assertEquals("Latest price of each line (dashed: not in the newest snapshot)", driver.findElement(By.id("history-legend-caption")).getText());
    WebElement lambda = driver.findElement(By.cssSelector("#history-legend tr[data-vendor='lambda']"));
    assertEquals("4.19", lambda.findElement(By.cssSelector("td.price")).getText());
    assertEquals("H100_SXM x1 · us", lambda.findElement(By.cssSelector("td.offer")).getText());
    assertTrue(driver.findElement(By.id("history-more")).getText().startsWith("29 more not drawn"),
        driver.findElement(By.id("history-more")).getText());

    // pointing at the first date: per GPU-hour, lambda's cheapest was its 8-GPU node at 23.92 an
    // hour on 2026-02-11 (CSV line 145), 2.99 a GPU
    WebElement over = driver.findElement(By.cssSelector("#history-chart .u-over"));
    new org.openqa.selenium.interactions.Actions(driver)
        .moveToElement(over, -over.getSize().getWidth() / 2 + 1, 0).perform();
    wait.until(d -> d.findElement(By.id("history-legend-caption")).getText().equals("Prices on 2026-02-11"));
    lambda = driver.findElement(By.cssSelector("#history-legend tr[data-vendor='lambda']"));
    assertEquals("2.99", lambda.findElement(By.cssSelector("td.price")).getText());
    assertEquals("H100_SXM x8 · 8 GPUs: 23.92 / hour", lambda.findElement(By.cssSelector("td.offer")).getText());
    new org.openqa.selenium.interactions.Actions(driver).moveToElement(driver.findElement(By.id("history-title"))).perform();
    wait.until(d -> d.findElement(By.id("history-legend-caption")).getText().startsWith("Latest price of each line"));

    // what changed on 2026-05-31: nebius eu went from 1.25 to 2.15 (CSV lines of 05-30 and 05-31)
    wait.until(d -> !d.findElements(By.cssSelector("#changes-list li")).isEmpty());
    assertTrue(driver.findElement(By.id("changes-summary")).getText().startsWith("Snapshot of 2026-05-31 against 2026-05-30: "),
        driver.findElement(By.id("changes-summary")).getText());
    WebElement top = driver.findElement(By.cssSelector("#changes-list li:first-child"));
    assertEquals("nebius", top.getAttribute("data-vendor"));
    assertEquals("▲ +72.0 % nebius H100_SXM x1 · eu · on-demand: 2.15 USD / hour (was 1.25)", top.getText());
    assertTrue(driver.findElements(By.cssSelector("#changes-list li")).size() <= 10);
    screenshot("dashboard-history.png");

    // one vendor: a line per offer; the CSV link follows the filter and holds the prices as quoted
    new Select(driver.findElement(By.id("history-vendor"))).selectByValue("lambda");
    wait.until(d -> d.findElements(By.cssSelector("#history-legend tbody tr[data-vendor]")).stream()
        .allMatch(r -> "lambda".equals(r.getAttribute("data-vendor"))));
    List<String> offers = driver.findElements(By.cssSelector("#history-legend tbody tr[data-vendor] th")).stream()
        .map(e -> e.getText().trim()).toList();
    assertEquals("H100_SXM x1 · us", offers.get(0), offers::toString);
    assertTrue(offers.containsAll(List.of("H100_SXM x1", "H100_SXM x2", "H100_SXM x4", "H100_SXM x8")), offers::toString);
    String href = driver.findElement(By.id("history-csv")).getAttribute("href");
    assertTrue(href.endsWith("/api/history?gpu=h100-sxm&billing=on-demand&vendor=lambda&format=csv"), href);
    String csv = (String) driver.executeAsyncScript("const done = arguments[arguments.length - 1];"
        + " fetch(document.getElementById('history-csv').href).then(r => r.text()).then(done, e => done('failed: ' + e));");
    assertTrue(csv.startsWith("vendor,region,offer,gpu,billing,currency,unit,at,price"), csv);
    assertTrue(csv.contains("\nlambda,us,H100_SXM x1,h100-sxm,on-demand,USD,hour,2026-05-31T00:00:00Z,4.19"), csv);
    assertTrue(csv.contains("\nlambda,,H100_SXM x8,h100-sxm,on-demand,USD,hour,2026-02-11T00:00:00Z,23.92"), csv);
    assertTrue(csv.lines().skip(1).allMatch(l -> l.startsWith("lambda,")), "only lambda's offers");

    // Chinese
    driver.findElement(By.id("lang-zh")).click();
    wait.until(d -> "价格走势".equals(d.findElement(By.id("history-title")).getText()));
    assertEquals("与上一个快照相比的变化", driver.findElement(By.id("changes-title")).getText());
    assertEquals("各条线的最新价格（虚线：最新快照中没有）", driver.findElement(By.id("history-legend-caption")).getText());
    assertEquals("按需", new Select(driver.findElement(By.id("history-billing"))).getFirstSelectedOption().getText());
    screenshot("dashboard-history-zh.png");
    driver.findElement(By.id("lang-en")).click();

    // a phone-sized window: the chart shrinks with the panel and nothing scrolls sideways
    driver.manage().window().setSize(new org.openqa.selenium.Dimension(420, 1500));
    try {
      wait.until(d -> (Boolean) driver.executeScript("const c = document.querySelector('#history-chart .uplot');"
          + " return c != null && c.getBoundingClientRect().right <= document.documentElement.clientWidth"
          + " && document.documentElement.scrollWidth <= document.documentElement.clientWidth;"));
      driver.executeScript("document.getElementById('history').scrollIntoView();");
      screenshot("dashboard-history-narrow.png");
    } finally {
      driver.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 1500));
    }

    // a GPU nobody quoted: said so, with no chart
    new Select(driver.findElement(By.id("history-gpu"))).selectByValue("k80");
    wait.until(d -> "empty".equals(d.findElement(By.id("history")).getAttribute("data-state")));
    assertEquals("No on-demand prices for NVIDIA Tesla K80 in the snapshots yet.", driver.findElement(By.id("history-message")).getText());
    assertFalse(driver.findElement(By.id("history-figure")).isDisplayed());
    assertEquals("All vendors", new Select(driver.findElement(By.id("history-vendor"))).getFirstSelectedOption().getText());

    // no snapshot service (as the API answers then: 503): what to do about it, in both languages
    driver.executeScript("const f = window.fetch; window.fetch = (u, o) => /\\/api\\/history/.test(String(u))"
        + " ? Promise.resolve(new Response('{\"error\": \"snapshots are not running\"}', {status: 503,"
        + " headers: {'Content-Type': 'application/json'}})) : f(u, o);");
    new Select(driver.findElement(By.id("history-billing"))).selectByValue("spot");
    wait.until(d -> d.findElement(By.id("history-message")).getText().startsWith("No price history yet"));
    assertEquals("No price history yet: snapshots start tonight, or run `gpurent import-history`.",
        driver.findElement(By.id("history-message")).getText());
    assertFalse(driver.findElement(By.id("history-csv")).isDisplayed(), "no CSV to offer");
    driver.findElement(By.id("lang-zh")).click();
    assertEquals("暂无价格历史：快照将从今晚开始记录，或运行 `gpurent import-history` 导入历史数据。",
        driver.findElement(By.id("history-message")).getText());
    driver.executeScript("document.getElementById('history').scrollIntoView();");
    screenshot("dashboard-history-none.png");
    driver.findElement(By.id("lang-en")).click();

    // until the user picks one, the panel follows the live scenario's first GPU: the guide's
    // template starts with an RTX 4090
    driver.get("http://127.0.0.1:" + service.port() + "/");
    wait.until(d -> d.findElement(By.id("scenario-json")).getAttribute("value").contains("\"guide template (5.1)\"")
        && "ok".equals(d.findElement(By.id("history")).getAttribute("data-state")));
    assertEquals("h100-sxm", new Select(driver.findElement(By.id("history-gpu"))).getFirstSelectedOption().getAttribute("value"));
    driver.findElement(By.id("rank-live")).click();
    wait.until(d -> "rtx-4090".equals(new Select(d.findElement(By.id("history-gpu"))).getFirstSelectedOption().getAttribute("value"))
        && "ok".equals(d.findElement(By.id("history")).getAttribute("data-state")));
    assertTrue(driver.findElement(By.id("history-caption")).getText().startsWith("NVIDIA GeForce RTX 4090 · on-demand · USD per GPU-hour"),
        driver.findElement(By.id("history-caption")).getText());
    System.err.println("DashboardBrowserTest: price history test took " + (System.nanoTime() - started) / 1_000_000 + " ms");
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
