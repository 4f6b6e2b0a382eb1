package dev.gpurent.service;
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.FakeVendorServer;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gpurent.Slow;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.io.File;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
 * guide's reference sheet and months of imported market prices. The page opens ranked; the form
 * and the sliders re-rank; errors sit on their fields; two bills are compared; it prints a page per
 * plan; it follows a price change live and reconnects; the price history is in the scenario's
 * currency with lone prices as dots; Chinese, Excel. Every figure checked is the API's. Full-page
 * screenshots go to target/dashboard-*.png (en and zh; fonts-noto-cjk for the glyphs). Needs the
 * Debian packages chromium and chromium-driver (.ci/run installs them); without them the test is
 * skipped, saying so.
 */
@Slow
class DashboardBrowserTest {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Duration WAIT = Duration.ofSeconds(30);
  static final Path MARKET = ServiceFixtures.DATA.resolve("market-observations/cherielilili-observations.2026-02-11_2026-05-31.csv");
  static final java.util.logging.Logger SELENIUM_LOG = java.util.logging.Logger.getLogger("org.openqa.selenium");

  static RunningService app;
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
    app = RunningService.prepare(root);
    vertx = app.vertx();
    fake = app.fake();
    client = app.client();
    importMarketHistory();
    for (String v : List.of("runpod", "vast")) {  // a busy machine must not time the loopback vendors out
      Path def = root.resolve("adapters/" + v + ".yaml");
      Files.writeString(def, Files.readString(def).replace("\"timeout\" : \"2s\"", "\"timeout\" : \"20s\""));
    }
    service = app.start();
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
    if (app != null) app.close();
    if (profile != null) {
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  String base() {
    return "http://127.0.0.1:" + service.port();
  }

  /** The page as a first-time visitor sees it: nothing kept from an earlier test. */
  WebDriverWait fresh(String query) {
    driver.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 1500));
    driver.get(base() + "/?lang=en");
    driver.executeScript("localStorage.clear();");
    driver.get(base() + "/" + query);
    WebDriverWait wait = new WebDriverWait(driver, WAIT);
    wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
    return wait;
  }

  /** As {@link #fresh}, then the guide's 5-10 person team (it pins the RTX 4090 and the A100 40GB SXM), ranked live. */
  WebDriverWait freshTeam(String query) throws Exception {
    WebDriverWait wait = fresh(query);
    wait.until(DashboardBrowserTest::live);
    String opened = pageScenario().getString("name");
    new Select(driver.findElement(By.id("preset"))).selectByValue("team-medium");
    wait.until(d -> !opened.equals(pageScenario().getString("name")));
    JsonObject team = ranked(s -> { });
    wait.until(d -> live(d) && rankedRows() == team.getJsonArray("plans").size()
        && team.getJsonArray("plans").getJsonObject(0).getString("monthlyTotal").equals(monthly(team.getJsonArray("plans").getJsonObject(0).getString("vendor"))));
    return wait;
  }

  static boolean live(org.openqa.selenium.WebDriver d) {
    return "live".equals(d.findElement(By.id("status")).getAttribute("data-state")) && rankedRows() > 0;
  }

  /** What POST /api/rank answers for the scenario the page holds, with {@code edit} applied. */
  JsonObject ranked(java.util.function.Consumer<JsonObject> edit) throws Exception {
    JsonObject s = pageScenario();
    edit.accept(s);
    var r = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/rank?lang=en").sendJsonObject(s));
    assertEquals(200, r.statusCode(), r::bodyAsString);
    return r.bodyAsJsonObject();
  }

  static JsonObject pageScenario() {
    return new JsonObject((String) driver.executeScript("return JSON.stringify(JSON.parse(localStorage.getItem('gpurent.scenario')).scenario);"));
  }

  static JsonObject plan(JsonObject ranking, String vendor) {
    return ranking.getJsonArray("plans").stream().map(JsonObject.class::cast).filter(p -> p.getString("vendor").equals(vendor))
        .findFirst().orElseThrow(() -> new AssertionError(vendor + " not ranked: " + ranking.encode()));
  }

  static void type(String css, String text) {
    WebElement input = driver.findElement(By.cssSelector(css));
    input.sendKeys(org.openqa.selenium.Keys.chord(org.openqa.selenium.Keys.CONTROL, "a"), text);
  }

  @Test
  void opens_ranked_rows_answer_the_form_and_sliders_rerank_errors_sit_on_their_field_compare_and_print() throws Exception {
    WebDriverWait wait = fresh("?lang=en");
    // no button pressed: the guide's template with no card pinned, so the market is ranked, live
    wait.until(DashboardBrowserTest::live);
    assertEquals("en", driver.findElement(By.tagName("html")).getAttribute("lang"));
    assertEquals("guide-template-open", new Select(driver.findElement(By.id("preset"))).getFirstSelectedOption().getAttribute("value"));
    assertTrue(driver.findElement(By.id("status")).getText().startsWith("Live · updated "), driver.findElement(By.id("status")).getText());
    assertTrue(pageScenario().getJsonArray("workloads").stream().allMatch(w -> ((JsonObject) w).getString("gpu") == null), "no card pinned");
    JsonObject open = ranked(s -> { });
    assertTrue(open.getJsonArray("plans").size() > 1, "more than one vendor ranked: " + open.getJsonArray("unavailable"));
    assertEquals(open.getJsonArray("plans").size(), rankedRows());
    assertCheaperSaid(open);

    // the guide's 5-10 person team (the figures below are its); a preset switch is a new scenario, so no rank moves
    String opened = pageScenario().getString("name");
    new Select(driver.findElement(By.id("preset"))).selectByValue("team-medium");
    wait.until(d -> !opened.equals(pageScenario().getString("name")));
    JsonObject medium = ranked(s -> { });
    wait.until(d -> live(d) && rankedRows() == medium.getJsonArray("plans").size()
        && plan(medium, "vast").getString("monthlyTotal").equals(monthly("vast")));
    assertEquals(List.of(), driver.findElements(By.cssSelector("#ranking .move")).stream().map(WebElement::getText).toList(),
        "moves against another scenario's ranking");

    // each row says what is rented, per workload, and its totals are the API's
    JsonObject expected = ranked(s -> { });
    assertEquals(expected.getJsonArray("plans").size(), rankedRows());
    JsonObject vast = plan(expected, "vast");
    assertEquals(vast.getString("monthlyTotal"), monthly("vast"));
    WebElement row = driver.findElement(By.cssSelector("#ranking tbody tr[data-vendor='vast']"));
    assertEquals(vast.getString("horizonTotal"), row.findElement(By.cssSelector("td.horizon")).getAttribute("data-value"));
    for (Object o : vast.getJsonArray("placements")) {
      JsonObject pl = (JsonObject) o;
      WebElement li = row.findElement(By.cssSelector("td.rent li[data-workload='" + pl.getString("workload") + "']"));
      assertEquals(pl.getString("workload") + ": " + pl.getString("gpuName") + " × " + pl.getInteger("cards") + " · "
          + pl.getString("billing") + " · " + pl.getString("region"), li.getText());
    }
    assertEquals("NVIDIA GeForce RTX 4090 × 2", row.findElement(By.cssSelector("td.rent li[data-workload='inference']")).getText()
        .replaceAll("^inference: (.*?) · .*$", "$1"), "two 4090s serve 3 QPS, as the guide sizes them");
    assertEquals(vast.getBoolean("complete") ? "complete" : "incomplete: " + vast.getJsonArray("gaps").size() + " not at a stated price",
        row.findElement(By.cssSelector(vast.getBoolean("complete") ? ".complete-flag" : ".gap-flag")).getText());
    // the winner painted is the API's #1, the cheapest complete plan; the incomplete plans follow under their own
    // heading, and one cheaper than #1 says in its row what quote would let it beat #1
    JsonObject first = expected.getJsonArray("plans").getJsonObject(0);
    List<WebElement> best = driver.findElements(By.cssSelector("#ranking tbody tr.best"));
    assertEquals(first.getBoolean("complete") ? List.of(first.getString("vendor")) : List.of(),
        best.stream().map(e -> e.getAttribute("data-vendor")).toList());
    long incomplete = expected.getJsonArray("plans").stream().filter(o -> !((JsonObject) o).getBoolean("complete")).count();
    assertEquals(incomplete > 0 ? 1 : 0, driver.findElements(By.cssSelector("#ranking tbody tr.incomplete-group")).size());
    for (Object o : expected.getJsonArray("plans")) {
      JsonObject w = ((JsonObject) o).getJsonObject("winsAt");
      List<WebElement> quoted = driver.findElements(By.cssSelector("#ranking .wins-if-quoted[data-vendor='" + ((JsonObject) o).getString("vendor") + "']"));
      if (w != null && !w.getJsonArray("services").isEmpty()) assertEquals(w.getString("text"), quoted.get(0).getText());
      else assertTrue(quoted.isEmpty());
    }
    if (vast.getBoolean("dated")) {
      assertEquals("dated " + vast.getString("priceDate").substring(0, 10), row.findElement(By.cssSelector(".dated-flag")).getText());
    }
    // the breakdown: one bar per vendor in five parts, on a canvas
    assertEquals(List.of("GPU", "Object storage", "Public bandwidth", "Load balancer", "Data migration"),
        driver.findElements(By.cssSelector("#breakdown-legend li")).stream().map(WebElement::getText).toList());
    assertFalse(driver.findElements(By.cssSelector("#breakdown canvas")).isEmpty());

    // the form: a switch adds the guide's reference sheet to the ranking
    driver.findElement(By.id("f-includeReference")).click();
    wait.until(d -> rankedRows() == expected.getJsonArray("plans").size() + 1
        && !d.findElements(By.cssSelector("#ranking tbody tr[data-vendor='guide-reference']")).isEmpty());
    assertEquals("4800.00", monthly("guide-reference"), "the guide's 5.2 sheet for this team: about 4800 a month");
    assertCheaperSaid(ranked(s -> { }));

    // typing a peak QPS re-ranks: a different figure, the API's for 30 QPS
    String before = monthly("vast");
    type("#f-workloads-0-peakQps", "30");
    wait.until(d -> !before.equals(monthly("vast")));
    assertEquals(plan(ranked(s -> { }), "vast").getString("monthlyTotal"), monthly("vast"));
    assertEquals(30, pageScenario().getJsonArray("workloads").getJsonObject(0).getInteger("peakQps"));
    String at30 = monthly("vast");

    // and so does the slider, which the form then shows
    driver.executeScript("const s = document.getElementById('s-qps'); s.value = 10; s.dispatchEvent(new Event('input', {bubbles: true}));");
    wait.until(d -> !at30.equals(monthly("vast")));
    assertEquals("10", driver.findElement(By.id("f-workloads-0-peakQps")).getAttribute("value"));
    assertEquals(plan(ranked(s -> { }), "vast").getString("monthlyTotal"), monthly("vast"));
    // the grid under it: the winner at each value, the break-even marked where it changes
    wait.until(d -> d.findElement(By.id("ranking")).getAttribute("data-scenario").equals(d.findElement(By.id("s-qps-grid")).getAttribute("data-scenario"))
        && d.findElements(By.cssSelector("#s-qps-grid li[data-vendor]")).size() == 7);
    List<WebElement> cells = driver.findElements(By.cssSelector("#s-qps-grid li"));
    List<Integer> values = List.of(1, 2, 5, 10, 20, 40, 60);
    for (int i = 0; i < cells.size(); i++) {
      int qps = values.get(i);
      assertEquals(String.valueOf(qps), cells.get(i).getAttribute("data-value"));
      JsonObject winner = ranked(s -> s.getJsonArray("workloads").getJsonObject(0).put("peakQps", qps)).getJsonArray("plans").getJsonObject(0);
      assertEquals(winner.getString("vendor"), cells.get(i).getAttribute("data-vendor"), "the winner at " + qps + " QPS");
      boolean flips = i > 0 && !cells.get(i).getAttribute("data-vendor").equals(cells.get(i - 1).getAttribute("data-vendor"));
      assertEquals(flips, String.valueOf(cells.get(i).getAttribute("class")).contains("flip"), "break-even marked at " + qps);
    }

    // a bad figure: the API's reason, on the field it names
    type("#f-workloads-0-peakQps", "-1");
    WebElement error = driver.findElement(By.cssSelector(".field-error[data-field='workloads[0].peakQps']"));
    wait.until(d -> error.isDisplayed());
    assertEquals("must be > 0, got -1", error.getText());
    assertEquals("true", driver.findElement(By.id("f-workloads-0-peakQps")).getAttribute("aria-invalid"));
    assertEquals("invalid", driver.findElement(By.id("status")).getAttribute("data-state"));
    type("#f-workloads-0-peakQps", "3");
    wait.until(d -> !error.isDisplayed() && live(d));

    // compare two vendors line by line: the totals are the rows'
    assertEquals(plan(ranked(s -> { }), "vast").getString("monthlyTotal"), monthly("vast"));
    driver.findElement(By.cssSelector(".compare-pick[data-vendor='guide-reference']")).click();
    driver.findElement(By.cssSelector(".compare-pick[data-vendor='vast']")).click();
    wait.until(d -> !d.findElements(By.cssSelector("#compare table")).isEmpty());
    assertEquals(List.of("guide-reference", "vast"), driver.findElements(By.cssSelector("#compare thead th[data-vendor]")).stream()
        .map(e -> e.getAttribute("data-vendor")).toList());
    for (String v : List.of("guide-reference", "vast")) {
      assertEquals(monthly(v), driver.findElement(By.cssSelector("#compare tfoot td.total[data-vendor='" + v + "']")).getAttribute("data-value"));
    }
    assertEquals("3,000.00", driver.findElement(By.cssSelector("#compare tbody tr[data-line='gpu:inference'] td")).getText().lines().findFirst().orElseThrow(),
        "the guide's two monthly 4090s at 1500");
    assertTrue(driver.findElements(By.cssSelector("#compare tbody tr")).size() >= 4);
    fullScreenshot("dashboard-en.png");
    // when the prices were read, in ISO form: 12/02/2026 is December 2 to some readers and February 12 to others
    String caption = driver.findElement(By.id("scenario-summary")).getText();
    assertTrue(caption.matches(".* · prices read \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d"), caption);

    // printed: the ranking on the first page, then one page per plan
    String pdf = driver.print(new org.openqa.selenium.print.PrintOptions()).getContent();
    byte[] printed = java.util.Base64.getDecoder().decode(pdf);
    Files.write(Path.of("target/dashboard-en.pdf"), printed);  // to look at when the page count is off
    String raw = new String(printed, StandardCharsets.ISO_8859_1);
    long pages = java.util.regex.Pattern.compile("/Type\\s*/Page[^s]").matcher(raw).results().count();
    // a plan whose bill, gaps and warnings run long (vast's, with its typical figures) goes on to a second page
    assertTrue(pages >= 1 + rankedRows() && pages <= 1 + 2 * rankedRows(), pages + " pages: a summary page and a page or two per plan");

    // Chinese: the page's labels (both tables have every key), the guide's terms
    assertEquals("[]", driver.executeAsyncScript("const done = arguments[arguments.length - 1];"
        + " import('/i18n.js').then(m => { const en = Object.keys(m.TABLES.en), zh = Object.keys(m.TABLES.zh);"
        + " done(JSON.stringify([...en.filter(k => !zh.includes(k)), ...zh.filter(k => !en.includes(k))])); });"));
    driver.findElement(By.id("lang-zh")).click();
    wait.until(d -> "zh-CN".equals(d.findElement(By.tagName("html")).getAttribute("lang")) && live(d)
        && d.getCurrentUrl().endsWith("lang=zh"));
    assertEquals("月费用（CNY）", driver.findElement(By.id("th-monthly")).getText());
    assertEquals("排名", driver.findElement(By.id("ranking-title")).getText());
    assertEquals(List.of("GPU", "对象存储", "公网带宽", "负载均衡", "数据迁移"),
        driver.findElements(By.cssSelector("#breakdown-legend li")).stream().map(WebElement::getText).toList());
    assertTrue(driver.findElement(By.cssSelector("#ranking tbody tr[data-vendor='vast'] td.rent")).getText().contains("按量计费"),
        driver.findElement(By.cssSelector("#ranking tbody tr[data-vendor='vast'] td.rent")).getText());
    assertEquals("余量", driver.findElement(By.cssSelector("label[for='f-headroom']")).getText().replaceAll("\\s*（.*|\\s*\\(.*", ""));
    fullScreenshot("dashboard-zh.png");
    driver.findElement(By.id("lang-en")).click();

    // a phone-sized window: one column, the answer above the form, nothing scrolls sideways
    driver.manage().window().setSize(new org.openqa.selenium.Dimension(420, 1500));
    wait.until(d -> (Boolean) driver.executeScript("const c = document.querySelector('#breakdown .uplot');"
        + " return c != null && c.getBoundingClientRect().right <= document.documentElement.clientWidth"
        + " && document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        + " && document.getElementById('results').getBoundingClientRect().top < document.getElementById('form').getBoundingClientRect().top;"));
    screenshot("dashboard-narrow.png");
  }

  /**
   * The green #1 says when a cheaper answer is on the screen below it (the mixed plan, the guide's
   * reference when not ranked), with that answer's monthly figure; when none is, it says nothing.
   */
  static void assertCheaperSaid(JsonObject ranking) {
    JsonObject first = ranking.getJsonArray("plans").getJsonObject(0);
    BigDecimal top = new BigDecimal(first.getString("monthlyTotal"));
    List<String> cheaper = new java.util.ArrayList<>();
    for (String k : List.of("mixed", "reference")) {
      JsonObject o = ranking.getJsonObject(k);
      if (o != null && new BigDecimal(o.getString("monthlyTotal")).compareTo(top) < 0) {
        cheaper.add(new java.text.DecimalFormat("#,##0.00", java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT))
            .format(new BigDecimal(o.getString("monthlyTotal"))));
      }
    }
    List<WebElement> said = driver.findElements(By.cssSelector("#ranking tr.best .cheaper-below"));
    if (!first.getBoolean("complete") || cheaper.isEmpty()) {
      assertEquals(List.of(), said.stream().map(WebElement::getText).toList());
      return;
    }
    assertEquals(1, said.size(), "the winner says a cheaper answer is below it: " + cheaper);
    for (String c : cheaper) assertTrue(said.get(0).getText().contains(c), c + " in " + said.get(0).getText());
  }

  /** Every row's Bill button inside the window and inside the table's panel (not scrolled out of its box). */
  static void assertBillButtonsInView(String lang) {
    @SuppressWarnings("unchecked")
    List<Object> out = (List<Object>) driver.executeScript("const out = [], vw = document.documentElement.clientWidth;"
        + " document.querySelectorAll('#ranking button.toggle').forEach(b => { const r = b.getBoundingClientRect(),"
        + " w = b.closest('.table-wrap').getBoundingClientRect();"
        + " if (r.width === 0 || r.right > vw || r.right > w.right + 0.5) out.push(b.dataset.vendor + ' right ' + r.right + ' of ' + Math.min(vw, w.right)); });"
        + " return out;");
    assertEquals(List.of(), out, lang + ": Bill buttons out of view");
    assertTrue(((Number) driver.executeScript("const t = document.getElementById('ranking');"
        + " return t.scrollWidth - t.parentElement.clientWidth;")).intValue() <= 0, lang + ": the table scrolls sideways");
  }

  /**
   * The page as printed on A4 (182 mm between the margins, about 690 CSS px): the ranking's last
   * column (the horizon total) and every printed bill end inside the page, nothing cut (issue 33).
   */
  static void assertPrintedColumnsFit(String lang) {
    org.openqa.selenium.Dimension screen = driver.manage().window().getSize();
    driver.manage().window().setSize(new org.openqa.selenium.Dimension(700, 1500));
    driver.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("media", "print"));
    try {
      @SuppressWarnings("unchecked")
      List<Object> cut = (List<Object>) driver.executeScript("const vw = document.documentElement.clientWidth, out = [];"
          + " document.querySelectorAll('#ranking td.horizon').forEach(c => { if (c.getBoundingClientRect().right > vw + 0.5)"
          + " out.push(c.closest('tr').dataset.vendor + ' horizon ends at ' + c.getBoundingClientRect().right + ' of ' + vw); });"
          + " document.querySelectorAll('#ranking, .print-plan table.bill').forEach(t => { if (t.scrollWidth > t.parentElement.clientWidth + 1"
          + " || t.getBoundingClientRect().right > vw + 0.5) out.push((t.closest('.print-plan') ? t.closest('.print-plan').dataset.vendor"
          + " + ' bill' : 'ranking') + ' ' + t.scrollWidth + ' wide in ' + t.parentElement.clientWidth); });"
          + " return out;");
      assertEquals(List.of(), cut, lang + ": cut on paper");
      assertTrue(((Number) driver.executeScript("return document.querySelectorAll('.print-plan table.bill').length;")).intValue() > 0);
    } finally {
      driver.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("media", ""));
      driver.manage().window().setSize(screen);
    }
  }

  @Test
  void at_1280_px_every_bill_button_is_in_view_in_both_languages_and_the_chinese_page_has_no_english_but_names() throws Exception {
    WebDriverWait wait = fresh("?lang=en");
    driver.manage().window().setSize(new org.openqa.selenium.Dimension(1280, 1500));
    wait.until(DashboardBrowserTest::live);
    assertEquals(ranked(s -> { }).getJsonArray("plans").size(), rankedRows());
    assertBillButtonsInView("en");
    screenshot("dashboard-1280-en.png");
    assertPrintedColumnsFit("en");
    driver.findElement(By.id("lang-zh")).click();
    wait.until(d -> "zh-CN".equals(d.findElement(By.tagName("html")).getAttribute("lang")) && live(d)
        && d.findElement(By.cssSelector("#ranking tbody td.rent")).getText().matches("(?s).*(按量计费|包月|包年|竞价实例).*"));
    assertBillButtonsInView("zh");
    screenshot("dashboard-1280-zh.png");
    assertPrintedColumnsFit("zh");

    // every bill and every fold open, then the page read as a Chinese reader sees it
    for (WebElement b : driver.findElements(By.cssSelector("#ranking button.toggle"))) b.click();
    driver.executeScript("document.querySelectorAll('details').forEach(d => d.open = true);");
    var zh = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/rank?lang=zh").sendJsonObject(pageScenario())).bodyAsJsonObject();
    java.util.Set<String> names = new java.util.TreeSet<>(List.of("gpurent", "GPU", "QPS", "GB", "GiB", "TB", "Mbps", "CNY", "USD", "EUR",
        "HKD", "JPY", "GBP", "SGD", "fp16", "bf16", "fp32", "int8", "int4", "FP16", "LoRA", "QLoRA", "NVLink", "PCIe", "SXM", "B", "x",
        "h", "s", "N", "T", "ID", "CUDA", "JSON", "CSV", "Excel", "xlsx", "OOM", "API", "api", "vendors", "allowMultiNode", "true",
        "RU", "europe", "cn", "asia", "nvidia", "UTC", "US"));  // US: the dollar's sign, US$
    names(zh, names);  // the names the ranking carries: vendors, cards, regions, offers
    // the model picker's examples are model names as people type them (GET /api/models: ids, HF ids, aliases)
    names(ServiceFixtures.await(client.get(service.port(), "127.0.0.1", "/api/models").send()).bodyAsJsonArray(), names);
    names.addAll(List.of("KV", "Instruct", "meta", "b", "r1", "qwen2", "deepseek", "llama"));
    for (String path : List.of("/api/gpus", "/api/vendors")) {
      names(ServiceFixtures.await(client.get(service.port(), "127.0.0.1", path).send()).bodyAsJsonArray(), names);
    }
    String gpu = new Select(driver.findElement(By.id("history-gpu"))).getFirstSelectedOption().getAttribute("value");
    names(ServiceFixtures.await(client.get(service.port(), "127.0.0.1", "/api/history?gpu=" + gpu + "&billing=on-demand&currency=CNY").send())
        .bodyAsJsonArray(), names);  // the history's vendors, offers and regions
    for (String line : Files.readAllLines(Path.of("config/gpurent.yaml"))) {  // the fallback providers' product names
      if (line.trim().startsWith("provider:")) latin(line.trim().substring("provider:".length()), names);
    }
    // the page's own text: what a source said (marked lang=en), form values a user types, and the
    // changes list (offer ids and prices of the history) are not the page's words
    String page = (String) driver.executeScript("const c = document.body.cloneNode(true);"
        + " c.querySelectorAll('[lang=en], script, style, option, input, textarea, .visually-hidden, .print-report, #changes-list')"
        + ".forEach(n => n.remove()); document.body.appendChild(c); const t = c.innerText; c.remove(); return t;");
    List<String> english = new java.util.ArrayList<>();
    for (String line : page.split("\n")) {
      java.util.Set<String> words = new java.util.TreeSet<>();
      latin(line, words);
      words.removeAll(names);
      if (!words.isEmpty()) english.add(words + " in: " + line);
    }
    assertEquals(List.of(), english.stream().distinct().limit(20).toList());
  }

  /** The words of every name field (vendor, card, region, offer ids and names) of a JSON answer, into {@code into}. */
  static void names(Object json, java.util.Set<String> into) {
    if (json instanceof JsonObject o) {
      for (String k : o.fieldNames()) {
        Object v = o.getValue(k);
        if (v instanceof String t && List.of("vendor", "displayName", "name", "id", "region", "offer", "upstream", "gpu", "gpuName",
            "homeVendor", "interconnect", "listedAs").contains(k)) latin(t, into);
        else names(v, into);
      }
    } else if (json instanceof io.vertx.core.json.JsonArray a) {
      for (Object x : a) names(x, into);
    }
  }

  /** The Latin words of {@code text}, into {@code into}. */
  static void latin(String text, java.util.Set<String> into) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9]*").matcher(text);
    while (m.find()) into.add(m.group());
  }

  @Test
  void follows_a_price_flip_live_and_reconnects_after_the_service_forgets_the_scenario() throws Exception {
    WebDriverWait wait = fresh("?lang=en");
    wait.until(DashboardBrowserTest::live);
    new Select(driver.findElement(By.id("preset"))).selectByValue("team-small");
    driver.findElement(By.id("f-includeReference")).click();
    wait.until(d -> rankedRows() == 3 && live(d) && pageScenario().getBoolean("includeReference", false));
    assertEquals("guide-reference", firstVendor().orElseThrow());
    assertEquals("1800.00", monthly("guide-reference"), "the guide's 5.2 sheet for up to 3 people");
    assertEquals(plan(ranked(s -> { }), "runpod").getString("monthlyTotal"), monthly("runpod"));

    // a hundredfold price cut at RunPod: the table follows without a reload
    String[] vastBody = {null};
    fake.rewrite("runpod", body -> ServiceFixtures.scale(body, 0.01));
    try {
      assertEquals(200, ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/admin/refresh?vendor=runpod")
          .bearerTokenAuthentication(ServiceFixtures.TOKEN).send()).statusCode());
      wait.until(d -> "runpod".equals(firstVendor().orElse(null)));
      assertEquals("2", driver.findElement(By.cssSelector("#ranking tbody tr[data-vendor='guide-reference']")).getAttribute("data-rank"));
      assertEquals("▼1", driver.findElement(By.cssSelector("#ranking tbody tr[data-vendor='guide-reference'] .move")).getText());

      // Vast 1% dearer: RunPod stays #1, so the page gets a delta that names RunPod's and the
      // reference's plans and carries Vast's alone (live.js applyDelta); the table shows all three right
      String runpod = monthly("runpod"), reference = monthly("guide-reference"), vast = monthly("vast");
      long opened = (Long) driver.executeScript("return window.__sockets.length;");
      fake.rewrite("vast", body -> {
        vastBody[0] = body;
        return FakeVendorServer.scaleCsv(body, new BigDecimal("1.01"));
      });
      assertEquals(200, ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/admin/refresh?vendor=vast")
          .bearerTokenAuthentication(ServiceFixtures.TOKEN).send()).statusCode());
      wait.until(d -> !vast.equals(monthly("vast")));
      JsonObject now = ranked(s -> { });
      assertEquals(plan(now, "vast").getString("monthlyTotal"), monthly("vast"));
      assertEquals(runpod, monthly("runpod"));
      assertEquals(reference, monthly("guide-reference"));
      assertEquals("runpod", firstVendor().orElseThrow());
      assertEquals(opened, (Long) driver.executeScript("return window.__sockets.length;"), "applied on the same socket, not reopened");

      // the connection drops and, meanwhile, the service forgets the scenario (as in a restart):
      // the page reconnects with backoff, finds its scenario gone, registers it again and is live
      String oldId = driver.findElement(By.id("ranking")).getAttribute("data-scenario");
      long sockets = (Long) driver.executeScript("return window.__sockets.length;");
      driver.executeScript("window.__sockets.forEach(s => s.close());");
      new WebDriverWait(driver, WAIT, Duration.ofMillis(50))
          .until(d -> "reconnecting".equals(d.findElement(By.id("status")).getAttribute("data-state")));
      assertTrue(driver.findElement(By.id("status")).getText().startsWith("Connection lost; reconnecting in "),
          driver.findElement(By.id("status")).getText());
      assertEquals(204, ServiceFixtures.await(client.delete(service.port(), "127.0.0.1", "/api/scenarios/" + oldId).send()).statusCode());
      wait.until(d -> live(d) && !oldId.equals(d.findElement(By.id("ranking")).getAttribute("data-scenario")) && rankedRows() == 3);
      assertEquals(sockets + 1, (Long) driver.executeScript("return window.__sockets.length;"));
      assertEquals("runpod", firstVendor().orElseThrow());
    } finally {
      fake.rewrite("runpod", body -> ServiceFixtures.scale(body, 100));
      ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/admin/refresh?vendor=runpod").bearerTokenAuthentication(ServiceFixtures.TOKEN).send());
      if (vastBody[0] != null) {
        fake.rewrite("vast", body -> vastBody[0]);
        ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/admin/refresh?vendor=vast").bearerTokenAuthentication(ServiceFixtures.TOKEN).send());
      }
    }
  }

  @Test
  void the_excel_button_downloads_a_workbook_whose_totals_are_the_rankings() throws Exception {
    WebDriverWait wait = freshTeam("?lang=en");
    driver.findElement(By.id("download-xlsx")).click();
    Path xlsx = new WebDriverWait(driver, WAIT.multipliedBy(3))
        .withMessage(() -> "no workbook downloaded; status: " + driver.findElement(By.id("status")).getText())
        .until(d -> fileIn(downloads, ".xlsx"));
    JsonObject expected = ranked(s -> { });
    try (var wb = new org.apache.poi.xssf.usermodel.XSSFWorkbook(Files.newInputStream(xlsx))) {
      var eval = wb.getCreationHelper().createFormulaEvaluator();
      assertTrue(wb.getNumberOfSheets() >= 1 + expected.getJsonArray("plans").size(), "a summary and a sheet per bill");
      var summary = wb.getSheetAt(0);
      for (Object o : expected.getJsonArray("plans")) {
        JsonObject p = (JsonObject) o;
        BigDecimal total = new BigDecimal(p.getString("monthlyTotal"));
        boolean found = false;
        for (var r : summary) {
          boolean names = false;
          boolean sums = false;
          for (var c : r) {
            var v = eval.evaluate(c);
            if (v == null) continue;
            if (v.getCellType() == org.apache.poi.ss.usermodel.CellType.STRING
                && (v.getStringValue().equals(p.getString("vendor")) || v.getStringValue().equals(p.getString("displayName")))) names = true;
            if (v.getCellType() == org.apache.poi.ss.usermodel.CellType.NUMERIC
                && BigDecimal.valueOf(v.getNumberValue()).setScale(2, java.math.RoundingMode.HALF_UP).compareTo(total) == 0) sums = true;
          }
          found |= names && sums;
        }
        assertTrue(found, () -> p.getString("vendor") + ": no summary row with its monthly total " + total);
      }
    }
  }

  @Test
  void in_chinese_no_server_text_is_english_but_vendor_card_and_unit_names() throws Exception {
    WebDriverWait wait = freshTeam("?lang=zh");
    wait.until(d -> live(d) && "zh-CN".equals(d.findElement(By.tagName("html")).getAttribute("lang")));
    driver.findElement(By.id("f-includeReference")).click();
    wait.until(d -> !d.findElements(By.cssSelector("#ranking tbody tr[data-vendor='guide-reference']")).isEmpty());
    JsonObject ranking = ranked(s -> { });
    // what may stay Latin: vendor and card names, regions and offer ids, units and model terms
    java.util.Set<String> allowed = new java.util.TreeSet<>(Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()));
    for (Object o : ranking.getJsonArray("plans")) {
      JsonObject p = (JsonObject) o;
      allowed.add(p.getString("vendor"));
      allowed.add(p.getString("displayName"));
      for (Object x : p.getJsonArray("placements")) {
        JsonObject pl = (JsonObject) x;
        for (String k : List.of("gpu", "gpuName", "region", "offer", "workload")) if (pl.getString(k) != null) allowed.add(pl.getString(k));
      }
    }
    for (Object o : ranking.getJsonArray("unavailable")) allowed.add(((JsonObject) o).getString("vendor"));
    var gpus = ServiceFixtures.await(client.get(service.port(), "127.0.0.1", "/api/gpus").send()).bodyAsJsonArray();
    for (Object g : gpus) {
      allowed.add(((JsonObject) g).getString("id"));
      allowed.add(((JsonObject) g).getString("name"));
    }
    allowed.addAll(List.of("CNY", "USD", "EUR", "GB-month", "GB", "TB", "Mbps", "QPS", "GPU", "fp16", "bf16", "fp32", "int8", "int4",
        "LoRA", "QLoRA", "lora", "qlora", "full", "NVLink", "PCIe", "SXM", "B", "h", "hour", "month", "year"));
    for (WebElement b : driver.findElements(By.cssSelector("#ranking button.toggle"))) b.click();
    List<String> texts = new java.util.ArrayList<>();
    for (String css : List.of("table.bill td.item", "table.bill td.note", ".placements .explanation", ".warnings li", ".gaps li",
        "#unavailable li", ".wins-at")) {
      for (WebElement e : driver.findElements(By.cssSelector(css))) texts.add(e.getText());
    }
    assertFalse(texts.isEmpty());
    for (String text : texts) {
      String left = text;
      for (String a : allowed) left = left.replace(a, "");
      assertFalse(left.matches("(?s).*[A-Za-z]{2,}.*"), () -> "English in the zh page: " + text);
    }
  }

  @Test
  void history_is_in_the_scenario_currency_one_line_per_vendor_a_lone_price_is_a_dot_and_no_line_crosses_months() throws Exception {
    assumeTrue(Files.isRegularFile(MARKET), "no market observations at " + MARKET);
    // today's fetched prices beside the imported February-May market history
    var snap = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/admin/snapshot").bearerTokenAuthentication(ServiceFixtures.TOKEN).send());
    assertEquals(201, snap.statusCode(), snap::bodyAsString);
    WebDriverWait wait = freshTeam("?lang=en");  // it pins the RTX 4090
    // the panel follows the scenario: its first card (RTX 4090) and its currency (CNY)
    wait.until(d -> live(d) && "ok".equals(d.findElement(By.id("history")).getAttribute("data-state"))
        && "rtx-4090".equals(new Select(d.findElement(By.id("history-gpu"))).getFirstSelectedOption().getAttribute("value"))
        && !d.findElements(By.cssSelector("#history-legend tbody tr[data-vendor='vast']")).isEmpty());
    String caption = driver.findElement(By.id("history-caption")).getText();
    assertTrue(caption.startsWith("NVIDIA GeForce RTX 4090 · on-demand · CNY per GPU-hour · "), caption);
    var series = ServiceFixtures.await(client.get(service.port(), "127.0.0.1", "/api/history?gpu=rtx-4090&billing=on-demand&currency=CNY").send())
        .bodyAsJsonArray();
    JsonObject fx = series.stream().map(JsonObject.class::cast).filter(x -> x.getJsonObject("fx") != null).findFirst().orElseThrow()
        .getJsonObject("fx");
    assertEquals("Converted to CNY at 1 USD = " + fx.getString("rate") + " CNY (rates of " + fx.getString("asOf") + ").",
        driver.findElement(By.id("history-fx")).getText());
    assertEquals("2025-05-09", fx.getString("asOf"), "the ECB file's date");
    // Vast once: its imported market rows ("vast.ai") are the configured vendor's
    assertEquals(1, driver.findElements(By.cssSelector("#history-legend tbody tr[data-vendor='vast']")).size());
    assertTrue(driver.findElements(By.cssSelector("#history-legend tbody tr[data-vendor='vast-ai']")).isEmpty());
    assertTrue(series.stream().map(JsonObject.class::cast).anyMatch(x -> "vast-ai".equals(x.getString("listedAs"))));
    // the page reads gpuCount from the history: no guessing, no /api/quotes call
    assertEquals(Boolean.FALSE, driver.executeScript(
        "return performance.getEntriesByType('resource').some(e => e.name.includes('/api/quotes'));"));

    // Vast's price of today is months from its last market price: a lone dot at the right edge, in its colour.
    // The axis spans the data: the months without a snapshot fold to one narrow gap just before the dot
    // (not half a chart of empty months), and no line crosses it
    WebElement vast = driver.findElement(By.cssSelector("#history-legend tbody tr[data-vendor='vast']"));
    assertEquals("1", vast.getAttribute("data-lone"));
    String color = vast.getAttribute("data-color");
    assertTrue(colourPixels(color, 0.93, 1.0) > 10, "a visible dot for the lone price");
    assertTrue(colourPixels(color, 0.3, 0.85) > 10, "the imported months fill the axis");
    io.vertx.core.json.JsonArray gaps = new io.vertx.core.json.JsonArray(driver.findElement(By.id("history-chart")).getAttribute("data-gaps"));
    assertFalse(gaps.isEmpty(), "the months without data are a gap");
    for (Object o : gaps) {
      io.vertx.core.json.JsonArray g = (io.vertx.core.json.JsonArray) o;
      double from = g.getDouble(0), to = g.getDouble(1);
      assertTrue(to - from < 0.1, "a gap is narrow: " + g);
      assertEquals(0L, colourPixels(color, from + (to - from) * 0.35, to - (to - from) * 0.35), "no line across the gap " + g);
    }
    assertTrue(vast.getText().contains("one price, "), vast.getText());

    // what changed: two snapshots of one origin (only one fetched so far: the imported market days), named
    wait.until(d -> !d.findElements(By.cssSelector("#changes-list li")).isEmpty());
    assertTrue(driver.findElement(By.id("changes-summary")).getText()
        .startsWith("Imported market snapshot of 2026-05-31 against the one of 2026-05-30: "), driver.findElement(By.id("changes-summary")).getText());
    driver.executeScript("document.getElementById('history').scrollIntoView();");
    screenshot("dashboard-history.png");

    // a GPU nobody quoted: said so, with no chart
    new Select(driver.findElement(By.id("history-gpu"))).selectByValue("k80");
    wait.until(d -> "empty".equals(d.findElement(By.id("history")).getAttribute("data-state")));
    assertEquals("No on-demand prices for NVIDIA Tesla K80 in the snapshots yet.", driver.findElement(By.id("history-message")).getText());
    assertFalse(driver.findElement(By.id("history-figure")).isDisplayed());
  }

  /** Pixels of the history canvas within 8 of {@code hex} in each channel, between two fractions of its width. */
  static long colourPixels(String hex, double from, double to) {
    return ((Number) driver.executeScript("const c = document.querySelector('#history-chart canvas');"
        + " const x0 = Math.floor(c.width * arguments[1]), x1 = Math.floor(c.width * arguments[2]);"
        + " const d = c.getContext('2d').getImageData(x0, 0, x1 - x0, c.height).data;"
        + " const h = arguments[0], r = parseInt(h.slice(1, 3), 16), g = parseInt(h.slice(3, 5), 16), b = parseInt(h.slice(5, 7), 16);"
        + " let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 200 && Math.abs(d[i] - r) <= 8"
        + " && Math.abs(d[i + 1] - g) <= 8 && Math.abs(d[i + 2] - b) <= 8) n++; return n;", hex, from, to)).longValue();
  }

  /** The whole page, not only the window: the window is stretched to the page's height for the shot. */
  static void fullScreenshot(String name) throws Exception {
    var size = driver.manage().window().getSize();
    long height = (Long) driver.executeScript("return document.documentElement.scrollHeight;");
    driver.manage().window().setSize(new org.openqa.selenium.Dimension(size.getWidth(), (int) Math.min(height + 140, 12000)));
    try {
      screenshot(name);
    } finally {
      driver.manage().window().setSize(size);
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

  static Path fileIn(Path dir, String ending) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(ending)).findFirst().orElse(null);
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
