package dev.gpurent.service;
import dev.gpurent.testing.ClusterChild;
import dev.gpurent.testing.FreePorts;
import dev.gpurent.testing.ServiceFixtures;

import static dev.gpurent.testing.ServiceFixtures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpurent.Slow;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quotesheet.QuoteSheetImport;
import dev.gpurent.quotesheet.QuoteSheetReader;
import dev.gpurent.quotesheet.SheetLayout;
import dev.gpurent.quotesheet.Sheets;
import dev.gpurent.store.EmbeddedPg;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.multipart.MultipartForm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One truth across three nodes ({@link ClusterChild}, three JVMs on loopback sharing one
 * PostgreSQL): each has vendor {@code acme} imported from the guide's quote sheet (the guide's
 * template ranks at 5000.00 CNY there). {@code /health} on every node lists the three members and
 * the same holder for each vendor's lease. A new sheet from acme (its RTX 4090 at 1200 a month
 * instead of 1500: 600 less for the template's two cards) imported on a node that does not hold
 * acme's lease reaches every node: each ranks the template at 4400.00 at acme.
 */
@Slow
class ClusterAdminTest {

  static final String XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
  static final long LEASE_MS = 4_000;

  @TempDir Path tmp;
  Vertx vertx;
  WebClient client;
  final List<Process> processes = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (Process p : processes) p.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
    if (vertx != null) await(vertx.close());
  }

  @Test
  void a_quote_sheet_imported_on_a_node_without_the_lease_reprices_every_node() throws Exception {
    vertx = Vertx.vertx();
    client = WebClient.create(vertx);
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    byte[] first = Sheets.guideQuote(SheetLayout.Lang.EN, today);
    byte[] cheaper = Sheets.edit(first, wb -> Sheets.cell(wb.getSheetAt(0), 2, "I").setCellValue("1200"));
    String pg = EmbeddedPg.freshUrl();
    int[] ports = {FreePorts.belowEphemeral(), FreePorts.belowEphemeral(), FreePorts.belowEphemeral()};
    JsonArray members = new JsonArray();
    for (int p : ports) members.add("127.0.0.1:" + p);
    int[] http = new int[3];
    for (int k = 0; k < 3; k++) http[k] = start(nodeRoot(k + 1, pg, ports[k], members, first), "n" + (k + 1));

    // every node sees three members and agrees on who holds each vendor's lease
    JsonObject[] views = new JsonObject[3];
    until(90, () -> {
      for (int k = 0; k < 3; k++) {
        views[k] = cluster(http[k]);
        if (views[k] == null || views[k].getJsonArray("members").size() != 3) return false;
        JsonObject leases = views[k].getJsonObject("leases");
        if (leases.getValue("acme") == null || leases.getValue("guide-reference") == null) return false;
        if (k > 0 && !leases.equals(views[0].getJsonObject("leases"))) return false;
      }
      return true;
    }, "three members and one holder per vendor lease, alike on every node");
    assertEquals("ok", views[0].getString("status"), views[0].encode());
    List<Object> ids = views[0].getJsonArray("members").getList();
    String holder = views[0].getJsonObject("leases").getString("acme");
    int outsider = -1;
    for (int k = 0; k < 3; k++) {
      assertEquals(views[0].getJsonArray("members"), views[k].getJsonArray("members"));
      assertEquals(true, ids.contains(views[k].getString("node")), "node " + (k + 1) + " is a member: " + views[k].encode());
      if (!views[k].getString("node").equals(holder)) outsider = k;
    }
    for (int k = 0; k < 3; k++) {
      int node = k;
      until(60, () -> "5000.00".equals(acmeTotal(http[node])), "node " + (node + 1) + " ranks the template at 5000.00 at acme");
    }

    long sent = System.nanoTime();
    HttpResponse<Buffer> r = upload(http[outsider], cheaper);
    assertEquals(201, r.statusCode(), r.bodyAsString());
    for (int k = 0; k < 3; k++) {
      int node = k;
      until(90, () -> "4400.00".equals(acmeTotal(http[node])), "node " + (node + 1) + " ranks the template at 4400.00 at acme");
    }
    System.out.println("cluster admin test: a quote sheet imported on node " + (outsider + 1) + " (not acme's lease holder) priced on all"
        + " three nodes " + (System.nanoTime() - sent) / 1_000_000 + " ms after the upload was sent");
    for (int k = 0; k < 3; k++) assertEquals("4400.00", acmeTotal(http[k]), "node " + (k + 1));
  }

  // ------------------------------------------------------------------ the nodes

  private Path nodeRoot(int k, String pg, int port, JsonArray members, byte[] sheet) throws IOException {
    Path root = tmp.resolve("node" + k);
    Files.createDirectories(root);
    ServiceFixtures.writeRoot(root, name -> "http://127.0.0.1:9/" + name);
    Files.delete(root.resolve("adapters/runpod.yaml"));
    Files.delete(root.resolve("adapters/vast.yaml"));
    QuoteSheetImport.run(root.resolve("adapters"), "acme", List.of(new QuoteSheetReader.Upload("rfq.xlsx", sheet)),
        GpuCatalog.load(Path.of("config/gpus.yaml")), Clock.systemUTC());
    ServiceFixtures.editConfig(root, c -> {
      c.getJsonObject("store").put("url", pg).put("pool", 2);
      c.getJsonObject("quotes").put("cacheDir", "data/last-good");
      c.put("cluster", new JsonObject().put("enabled", true).put("host", "127.0.0.1").put("port", port).put("members", members)
          .put("leaseTtl", LEASE_MS + "ms").put("failureDetection", "3s"));
    });
    return root;
  }

  /** Starts a node JVM and waits until it serves; its HTTP port. */
  private int start(Path root, String name) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Process p = new ProcessBuilder(java.toString(), "-Xmx320m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
        "-Djava.net.preferIPv4Stack=true", "-Dvertx.cacheDirBase=" + root.resolve("vertx-cache"),
        "-cp", cp, ClusterChild.class.getName(), root.toString())
        .redirectErrorStream(true).redirectOutput(Path.of("target", "cluster-admin-test-" + name + ".log").toFile()).start();
    processes.add(p);
    Path log = Path.of("target", "cluster-admin-test-" + name + ".log");
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < end) {
      if (Files.exists(log)) {
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
          if (line.startsWith("serving ")) return Integer.parseInt(line.substring("serving ".length()));
          if (line.startsWith("failed ")) throw new AssertionError(name + " did not start: " + line);
        }
      }
      if (!p.isAlive()) throw new AssertionError(name + " exited: see " + log);
      Thread.sleep(200);
    }
    throw new AssertionError(name + " did not serve within 120 s: see " + log);
  }

  // ------------------------------------------------------------------ talking to them

  /** The node's /health cluster check, or null while it does not answer. */
  private JsonObject cluster(int port) {
    try {
      HttpResponse<Buffer> r = await(client.get(port, "127.0.0.1", "/health").send());
      return r.bodyAsJsonObject().getJsonObject("checks").getJsonObject("cluster");
    } catch (Exception e) {
      return null;
    }
  }

  /** The guide template's monthly total at acme on that node, or null while it has none. */
  private String acmeTotal(int port) {
    try {
      JsonObject scenario = new JsonObject(ServiceFixtures.castMap(dev.gpurent.config.YamlFiles.load(Path.of("config/scenarios/guide-template.yaml"))));
      HttpResponse<Buffer> r = await(client.post(port, "127.0.0.1", "/api/rank").sendJsonObject(scenario));
      if (r.statusCode() != 200) return null;
      for (Object o : r.bodyAsJsonObject().getJsonArray("plans")) {
        JsonObject plan = (JsonObject) o;
        if ("acme".equals(plan.getString("vendor"))) return plan.getString("monthlyTotal");
      }
      return null;
    } catch (Exception e) {
      return null;
    }
  }

  private HttpResponse<Buffer> upload(int port, byte[] sheet) throws Exception {
    MultipartForm form = MultipartForm.create().attribute("vendor", "acme").binaryFileUpload("sheet", "acme.xlsx", Buffer.buffer(sheet), XLSX);
    return await(client.post(port, "127.0.0.1", "/api/admin/quote-sheets").bearerTokenAuthentication(ServiceFixtures.TOKEN)
        .sendMultipartForm(form));
  }

  private static void until(long seconds, java.util.function.BooleanSupplier done, String what) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > end) throw new AssertionError("not within " + seconds + " s: " + what);
      Thread.sleep(200);
    }
  }
}
