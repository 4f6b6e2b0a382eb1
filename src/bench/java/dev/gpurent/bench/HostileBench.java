package dev.gpurent.bench;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * Replays the attacks of issues 15 and 28 against a running gpurent (started by bench/hostile.sh in a JVM
 * of its own, on loopback) and prints, for each: what the attacker got, the server's peak heap
 * (its /metrics, sampled every 100 ms) and heap after a full GC (jcmd GC.run, then /metrics), and
 * GET /health latency for a well-behaved client polling every 20 ms on its own kept-alive
 * connection during the attack (p50, p99, max, errors). Every attack is bounded in count and time;
 * nothing leaves loopback. Prints figures; asserts nothing.
 *
 * <p>Properties: {@code bench.port}, {@code bench.pid} (the server's), {@code bench.root} (its
 * root, where the alias file is written), {@code bench.token}, {@code bench.jar}; {@code bench.attacks}, a comma-separated
 * list of the attacks to run (body, largest, live, neighbours, alias, recursive, xfd, websockets, slowheaders, wscycles,
 * pingflood, webhooks, store; default all).
 */
public final class HostileBench {

  static final String HOST = "127.0.0.1";
  static final int PORT = Integer.getInteger("bench.port", 18089);
  static final long PID = Long.getLong("bench.pid", -1);
  static final Path ROOT = Path.of(System.getProperty("bench.root", "target/hostile-root"));
  static final String TOKEN = System.getProperty("bench.token", "bench-admin-token");
  static final String JAR = System.getProperty("bench.jar", "target/gpurent.jar");

  static final List<String> ATTACKS = List.of(System.getProperty("bench.attacks", "all").split(","));

  static Vertx vertx;
  static WebClient client;

  static boolean wanted(String attack) {
    return ATTACKS.contains("all") || ATTACKS.contains(attack);
  }

  public static void main(String[] args) throws Exception {
    vertx = Vertx.vertx();
    client = WebClient.create(vertx, new WebClientOptions().setKeepAlive(true),
        new io.vertx.core.http.PoolOptions().setHttp1MaxSize(64));
    System.out.println("# load " + BenchSupport.loadAverage() + "; server pid " + PID + " on " + HOST + ":" + PORT);
    System.out.println("# heap: peak sampled from the server's /metrics every 100 ms; after GC: jcmd GC.run, then /metrics");
    System.out.println("baseline: heap after GC " + mib(heapAfterGc()));
    if (wanted("body")) bodyAttack();
    if (wanted("largest")) largestAllowedInParallel();
    if (wanted("live")) liveScenarios();
    if (wanted("neighbours")) neighbourAddresses();
    if (wanted("alias")) aliasFile();
    if (wanted("recursive")) recursiveAlias();
    if (wanted("xfd")) xfdQuoteSheet();
    if (wanted("websockets")) nonReadingWebSockets();
    if (wanted("slowheaders")) slowHeaders();
    if (wanted("wscycles")) webSocketCycles();
    if (wanted("pingflood")) pingFlood();
    if (wanted("webhooks")) webhooks();
    if (wanted("store")) corruptStore();
    System.out.println("end: heap after GC " + mib(heapAfterGc()));
    BenchSupport.await(vertx.close());
    System.exit(0);
  }

  // ------------------------------------------------------------------ the attacks

  /**
   * POST /api/rank with tiny batch workloads, 8 in parallel, for 10 s each: 5,136 of them (the
   * issue's body, at the old 256 KB limit), then as many as fit the body limit (64 KB).
   */
  static void bodyAttack() throws Exception {
    bodyAttack(5136);
    bodyAttack(Integer.getInteger("bench.atLimit", 1280));
  }

  static void bodyAttack(int n) throws Exception {
    JsonArray ws = new JsonArray();
    for (int i = 0; i < n; i++) ws.add(new JsonObject().put("kind", "batch").put("memoryGB", 1).put("gpuHoursPerMonth", 1));
    Buffer body = new JsonObject().put("workloads", ws).toBuffer();
    Map<String, AtomicInteger> got = new ConcurrentHashMap<>();
    AtomicLong bytes = new AtomicLong();
    measure(String.format(Locale.ROOT, "rank: %,d-workload body (%d KB) x 8 in parallel, 10 s", n, body.length() / 1024), 10, () -> {
      List<Future<?>> workers = new ArrayList<>();
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      for (int i = 0; i < 8; i++) workers.add(loop(end, () -> client.post(PORT, HOST, "/api/rank").putHeader("Content-Type", "application/json")
          .sendBuffer(body).onComplete(ar -> count(got, bytes, ar))));
      return Future.all(workers);
    }, () -> statuses(got) + ", " + bytes.get() / 1024 + " KB of answers in all");
  }

  /**
   * The largest scenario admitted (50 workloads), 16 in parallel for 10 s: admission caps the work,
   * by the queue and by the memory budget each one-off ranking holds until answered (the refusals
   * are counted by reason).
   */
  static void largestAllowedInParallel() throws Exception {
    JsonArray ws = new JsonArray();
    for (int i = 0; i < 50; i++) ws.add(new JsonObject().put("kind", "inference").put("paramsBillions", 1 + i).put("peakQps", 1 + i)
        .put("secondsPerRequest", 2).put("concurrentPerCard", 4));
    Buffer body = new JsonObject().put("currency", "USD").put("workloads", ws).toBuffer();
    Map<String, AtomicInteger> got = new ConcurrentHashMap<>();
    AtomicLong bytes = new AtomicLong();
    measure("rank: 50-workload scenarios (the most admitted) x 16 in parallel, 10 s", 10, () -> {
      List<Future<?>> workers = new ArrayList<>();
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      for (int i = 0; i < 16; i++) workers.add(loop(end, () -> client.post(PORT, HOST, "/api/rank").putHeader("Content-Type", "application/json")
          .sendBuffer(body).onComplete(ar -> count(got, bytes, ar))));
      return Future.all(workers);
    }, () -> statuses(got) + ", largest answer " + largest.get() / 1024 + " KB");
  }

  static final AtomicLong largest = new AtomicLong();

  /** 31 live scenarios of 2,728 workloads, then 31 of 50 (the most admitted) from one client: the budget's live share refuses first. */
  static void liveScenarios() throws Exception {
    Map<String, AtomicInteger> huge = new ConcurrentHashMap<>(), admitted = new ConcurrentHashMap<>();
    List<String> ids = new java.util.concurrent.CopyOnWriteArrayList<>();
    measure("scenarios: 31 x 2,728 workloads, then 31 x 50 workloads", 0, () -> {
      JsonArray big = new JsonArray();  // tiny workloads, so that 2,728 fit under the body limit
      for (int i = 0; i < 2728; i++) big.add(new JsonObject().put("kind", "batch").put("memoryGB", 1 + i % 40).put("gpuHoursPerMonth", 1));
      JsonArray fifty = new JsonArray();
      for (int i = 0; i < 50; i++) fifty.add(new JsonObject().put("kind", "inference").put("paramsBillions", 1 + i).put("peakQps", 1 + i)
          .put("secondsPerRequest", 2).put("concurrentPerCard", 4));
      Future<?> chain = Future.succeededFuture();
      for (int i = 0; i < 31; i++) {
        chain = chain.compose(x -> client.post(PORT, HOST, "/api/scenarios").sendJsonObject(new JsonObject().put("workloads", big))
            .onComplete(ar -> count(huge, new AtomicLong(), ar)));
      }
      for (int i = 0; i < 31; i++) {
        chain = chain.compose(x -> client.post(PORT, HOST, "/api/scenarios").sendJsonObject(new JsonObject().put("currency", "USD")
                .put("workloads", fifty))
            .onComplete(ar -> {
              count(admitted, new AtomicLong(), ar);
              if (ar.succeeded() && ar.result().statusCode() == 201) ids.add(ar.result().bodyAsJsonObject().getString("id"));
            }));
      }
      return chain;
    }, () -> "2,728 workloads: " + statuses(huge) + "; 50 workloads: " + statuses(admitted));
    double held = heapAfterGc();
    Map<String, AtomicInteger> rankings = new ConcurrentHashMap<>();
    for (String id : ids) {
      HttpResponse<Buffer> r = BenchSupport.await(client.get(PORT, HOST, "/api/scenarios/" + id + "/ranking").send());
      count(rankings, new AtomicLong(), Future.succeededFuture(r));
    }
    System.out.println("  held with " + ids.size() + " live: heap after GC " + mib(held) + "; their rankings: " + statuses(rankings));
    for (String id : ids) BenchSupport.await(client.delete(PORT, HOST, "/api/scenarios/" + id).send());
  }

  /**
   * Registration from 29 addresses of one network, 127.0.0.2 to 127.0.0.30 (Linux routes 127/8 to
   * loopback), 3 one-workload scenarios each: they are one client, so the per-client cap admits 20 in all.
   */
  static void neighbourAddresses() throws Exception {
    Map<String, AtomicInteger> got = new ConcurrentHashMap<>();
    List<String> ids = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<WebClient> neighbours = new ArrayList<>();
    for (int a = 2; a <= 30; a++) neighbours.add(WebClient.create(vertx, new WebClientOptions().setLocalAddress("127.0.0." + a)));
    JsonObject small = new JsonObject().put("currency", "USD").put("workloads", new JsonArray().add(new JsonObject().put("kind", "inference")
        .put("paramsBillions", 7).put("peakQps", 2).put("secondsPerRequest", 2).put("concurrentPerCard", 4)));
    measure("scenarios: 127.0.0.2 to 127.0.0.30 register 3 one-workload scenarios each", 0, () -> {
      Future<?> chain = Future.succeededFuture();
      for (int round = 0; round < 3; round++) {
        for (WebClient c : neighbours) {
          chain = chain.compose(x -> c.post(PORT, HOST, "/api/scenarios").sendJsonObject(small).onComplete(ar -> {
            count(got, new AtomicLong(), ar);
            if (ar.succeeded() && ar.result().statusCode() == 201) ids.add(ar.result().bodyAsJsonObject().getString("id"));
          }));
        }
      }
      return chain;
    }, () -> statuses(got));
    for (String id : ids) BenchSupport.await(client.delete(PORT, HOST, "/api/scenarios/" + id).send());
    neighbours.forEach(WebClient::close);
  }

  /** A 567-byte YAML with nested aliases: as a vendor file reloaded by an admin, and as a scenario on the command line. */
  static void aliasFile() throws Exception {
    // 7 levels of 7 aliases: 49 aliases, under SnakeYAML's own limit of 50, expanding to 7^7 x 9 values
    StringBuilder y = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    String names = "abcdefgh";
    for (int level = 1; level < 8; level++) {
      String prev = "*" + names.charAt(level - 1);
      y.append(names.charAt(level)).append(": &").append(names.charAt(level)).append(" [")
          .append(String.join(",", java.util.Collections.nCopies(7, prev))).append("]\n");
    }
    String bomb = y + "vendor: bomb\nkind: static\ncurrency: USD\nworkloads: [{kind: inference, paramsBillions: 7, peakQps: 1, "
        + "secondsPerRequest: 1, concurrentPerCard: 1}]\n";
    Path vendorFile = ROOT.resolve("adapters/zz-bomb.yaml");
    Path scenarioFile = ROOT.resolve("bomb-scenario.yaml");
    Files.writeString(vendorFile, bomb);
    Files.writeString(scenarioFile, bomb.replace("vendor: bomb\nkind: static\ncurrency: USD\n", ""));
    String[] outcome = new String[2];
    try {
      measure("alias file (" + bomb.length() + " bytes, 49 nested aliases): admin reload, and `gpurent rank` on it", 0, () -> {
        long t0 = System.nanoTime();
        return client.post(PORT, HOST, "/api/admin/reload").bearerTokenAuthentication(TOKEN).send().map(r -> {
          outcome[0] = "reload " + r.statusCode() + " in " + ms(System.nanoTime() - t0) + ": " + shorten(r.bodyAsString());
          return r;
        }).compose(r -> vertx.executeBlocking(() -> {
          long t1 = System.nanoTime();
          Process p = new ProcessBuilder("java", "-Xmx512m", "-jar", JAR, "rank", "--root", ROOT.toString(), scenarioFile.toString())
              .redirectErrorStream(true).start();
          String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
          int status = p.waitFor();
          outcome[1] = "CLI exit " + status + " in " + ms(System.nanoTime() - t1) + ": " + shorten(out);
          return null;
        }));
      }, () -> outcome[0] + "; " + outcome[1]);
    } finally {
      Files.deleteIfExists(vendorFile);
      Files.deleteIfExists(scenarioFile);
      BenchSupport.await(client.post(PORT, HOST, "/api/admin/reload").bearerTokenAuthentication(TOKEN).send(), 120);
      BenchSupport.await(client.post(PORT, HOST, "/api/admin/refresh").bearerTokenAuthentication(TOKEN).send(), 300);
    }
  }

  /** A 10-byte YAML alias that holds itself ({@code x: &a [*a]}): as a vendor file reloaded by an admin, and on the command line. */
  static void recursiveAlias() throws Exception {
    String cycle = "x: &a [*a]\n";
    Path vendorFile = ROOT.resolve("adapters/zz-cycle.yaml");
    Path scenarioFile = ROOT.resolve("cycle-scenario.yaml");
    Files.writeString(vendorFile, cycle);
    Files.writeString(scenarioFile, cycle);
    String[] outcome = new String[2];
    try {
      measure("recursive alias (" + cycle.length() + " bytes, x: &a [*a]): admin reload, and `gpurent rank` on it", 0, () -> {
        long t0 = System.nanoTime();
        return client.post(PORT, HOST, "/api/admin/reload").bearerTokenAuthentication(TOKEN).send().map(r -> {
          outcome[0] = "reload " + r.statusCode() + " in " + ms(System.nanoTime() - t0) + ": " + shorten(r.bodyAsString());
          return r;
        }).compose(r -> vertx.executeBlocking(() -> {
          long t1 = System.nanoTime();
          Process p = new ProcessBuilder("java", "-Xmx512m", "-jar", JAR, "rank", "--root", ROOT.toString(), scenarioFile.toString())
              .redirectErrorStream(true).start();
          String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
          int status = p.waitFor();
          outcome[1] = "CLI exit " + status + " in " + ms(System.nanoTime() - t1) + ": " + shorten(out);
          return null;
        }));
      }, () -> outcome[0] + "; " + outcome[1]);
    } finally {
      Files.deleteIfExists(vendorFile);
      Files.deleteIfExists(scenarioFile);
      BenchSupport.await(client.post(PORT, HOST, "/api/admin/reload").bearerTokenAuthentication(TOKEN).send(), 120);
      BenchSupport.await(client.post(PORT, HOST, "/api/admin/refresh").bearerTokenAuthentication(TOKEN).send(), 300);
    }
  }

  /**
   * The quote sheet of issue 28: one number in column XFD on each of 20,000 rows (about 100 KB; 1.9 GB
   * of heap and 51 s when the grid was built before it was bounded), uploaded by an admin 4 at a time
   * for 10 s.
   */
  static void xfdQuoteSheet() throws Exception {
    byte[] xlsx = xfdWorkbook(20_000);
    Map<String, AtomicInteger> got = new ConcurrentHashMap<>();
    String[] reason = {""};
    measure(String.format(Locale.ROOT, "quote sheet: 20,000 rows x one cell in column XFD (%d KB) x 4 in parallel, 10 s",
        xlsx.length / 1024), 10, () -> {
      List<Future<?>> workers = new ArrayList<>();
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      for (int i = 0; i < 4; i++) workers.add(loop(end, () -> client.post(PORT, HOST, "/api/admin/quote-sheets").bearerTokenAuthentication(TOKEN)
          .sendMultipartForm(io.vertx.ext.web.multipart.MultipartForm.create().attribute("vendor", "zz-xfd")
              .binaryFileUpload("sheet", "xfd.xlsx", Buffer.buffer(xlsx), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))
          .onComplete(ar -> {
            count(got, new AtomicLong(), ar);
            if (ar.succeeded()) reason[0] = shorten(ar.result().bodyAsString());
          })));
      return Future.all(workers);
    }, () -> statuses(got) + "; " + reason[0]);
  }

  /** A workbook whose offers sheet holds one number in column XFD on each of {@code rows} rows, its XML written by hand. */
  static byte[] xfdWorkbook(int rows) throws IOException {
    java.io.ByteArrayOutputStream small = new java.io.ByteArrayOutputStream();
    try (org.apache.poi.xssf.usermodel.XSSFWorkbook wb = new org.apache.poi.xssf.usermodel.XSSFWorkbook()) {
      wb.createSheet("offers").createRow(0).createCell(0).setCellValue(1);
      wb.write(small);
    }
    StringBuilder sheet = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?><worksheet "
        + "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>");
    for (int r = 1; r <= rows; r++) sheet.append("<row r=\"").append(r).append("\"><c r=\"XFD").append(r).append("\"><v>").append(r)
        .append("</v></c></row>");
    sheet.append("</sheetData></worksheet>");
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try (java.util.zip.ZipInputStream in = new java.util.zip.ZipInputStream(new java.io.ByteArrayInputStream(small.toByteArray()));
         java.util.zip.ZipOutputStream z = new java.util.zip.ZipOutputStream(out)) {
      for (java.util.zip.ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        z.putNextEntry(new java.util.zip.ZipEntry(e.getName()));
        z.write(e.getName().equals("xl/worksheets/sheet1.xml") ? sheet.toString().getBytes(StandardCharsets.UTF_8) : in.readAllBytes());
        z.closeEntry();
      }
    }
    return out.toByteArray();
  }

  /** 30 dashboards that ask for 25,000 unknown ids 4 times (as 100-id messages, the most one may name) and never read. */
  static void nonReadingWebSockets() throws Exception {
    int clients = 30;
    AtomicInteger reset = new AtomicInteger(), upgraded = new AtomicInteger(), allSent = new AtomicInteger();
    AtomicLong framesSent = new AtomicLong(), lastReset = new AtomicLong();
    long started = System.nanoTime();
    List<Socket> sockets = new java.util.concurrent.CopyOnWriteArrayList<>();
    measure("websocket: 30 dashboards send 4 x 25,000 unknown ids (100 a message) and never read, up to 60 s", 0, () -> vertx.executeBlocking(() -> {
      List<Thread> threads = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        Thread t = new Thread(() -> {
          try (Socket s = new Socket(HOST, PORT)) {
            sockets.add(s);
            s.setReceiveBufferSize(4096);
            upgrade(s);
            upgraded.incrementAndGet();
            OutputStream out = s.getOutputStream();
            for (int round = 0; round < 4; round++) {
              for (int m = 0; m < 250; m++) {
                StringBuilder sb = new StringBuilder("{\"subscribe\":[");
                for (int i = 0; i < 100; i++) sb.append(i == 0 ? "" : ",").append("\"r").append(round).append('-').append(m).append('-').append(i).append('"');
                frame(out, sb.append("]}").toString());
                framesSent.incrementAndGet();
              }
            }
            allSent.incrementAndGet();
            // never read; a reset shows as a failed write
            while (true) {
              Thread.sleep(500);
              frame(out, "{\"subscribe\":[]}");
            }
          } catch (IOException e) {
            reset.incrementAndGet();
            lastReset.set(System.nanoTime());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }, "ws-attacker-" + c);
        t.setDaemon(true);
        t.start();
        threads.add(t);
      }
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      for (Thread t : threads) t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
      for (Socket s : sockets) {
        try {
          s.close();
        } catch (IOException ignored) {
          // closed by the server
        }
      }
      return null;
    }), () -> upgraded.get() + " upgraded, " + framesSent.get() + " frames of 100 ids sent (" + allSent.get() + " sent all 1,000 before "
        + "being stopped); " + reset.get() + " cut off by the server (closed past 1,000 unknown ids, or reset once stalled), the last " + (lastReset.get() == 0 ? "-"
        : String.format(Locale.ROOT, "%.1f s", (lastReset.get() - started) / 1e9)) + " after they connected; "
        + (clients - reset.get()) + " still open");
  }

  /** 5,000 connections that send request headers one byte every 2 s and never finish them. */
  static void slowHeaders() throws Exception {
    int n = 5000;
    AtomicInteger opened = new AtomicInteger(), closedByServer = new AtomicInteger(), failed = new AtomicInteger();
    AtomicLong lastClose = new AtomicLong();
    long[] started = new long[1];
    NetClient net = vertx.createNetClient(new NetClientOptions().setConnectTimeout(10_000));
    List<NetSocket> open = new java.util.concurrent.CopyOnWriteArrayList<>();
    measure("slow headers: 5,000 connections, one header byte every 2 s, 25 s", 0, () -> {
      started[0] = System.nanoTime();
      List<Future<?>> all = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        all.add(net.connect(PORT, HOST).onSuccess(s -> {
          opened.incrementAndGet();
          open.add(s);
          s.closeHandler(v -> {
            closedByServer.incrementAndGet();
            lastClose.set(System.nanoTime());
          });
          s.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
        }).onFailure(e -> failed.incrementAndGet()));
      }
      long timer = vertx.setPeriodic(2000, id -> open.forEach(s -> s.write("a")));
      return Future.join(all).compose(x -> {
        io.vertx.core.Promise<Void> p = io.vertx.core.Promise.promise();
        vertx.setTimer(25_000, id -> {
          vertx.cancelTimer(timer);
          p.complete();
        });
        return p.future();
      });
    }, () -> opened.get() + " opened (" + failed.get() + " refused), " + closedByServer.get() + " closed by the server, the last "
        + (lastClose.get() == 0 ? "-" : String.format(Locale.ROOT, "%.1f s", (lastClose.get() - started[0]) / 1e9)) + " after the first opened");
    open.forEach(NetSocket::close);
    BenchSupport.await(net.close());
  }

  /** Where the bench's webhook sink listens: the operator allows it (bench/hostile.sh), standing in for a host outside. */
  static final String SINK = System.getProperty("bench.sink", "127.0.0.2");

  /**
   * Webhooks as an SSRF: registrations whose alerts go to loopback and internal targets (the
   * service's own admin route among them), then the amplification of issue 28: 20 registrations
   * of 20 rules each, all to one URL of the allowed sink that answers 500, counted for 40 s.
   */
  static void webhooks() throws Exception {
    List<String> inside = List.of("http://127.0.0.1:" + PORT + "/api/admin/reload", "http://[::1]:" + PORT + "/", "http://localhost:" + PORT + "/",
        "http://2130706433:" + PORT + "/", "http://[::ffff:127.0.0.1]:" + PORT + "/", "http://0.0.0.0:" + PORT + "/",
        "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://[fd00::1]/", "http://metadata/", "http://db.internal/");
    Map<String, AtomicInteger> refused = new ConcurrentHashMap<>();
    measure("webhooks: " + inside.size() + " registrations to loopback and internal targets", 0, () -> {
      Future<?> chain = Future.succeededFuture();
      for (String url : inside) {
        chain = chain.compose(x -> client.post(PORT, HOST, "/api/scenarios").sendJsonObject(webhookScenario(url, 1))
            .onComplete(ar -> count(refused, new AtomicLong(), ar)));
      }
      return chain;
    }, () -> statuses(refused));
    AtomicInteger posts = new AtomicInteger();
    io.vertx.core.http.HttpServer sink = BenchSupport.await(vertx.createHttpServer()
        .requestHandler(req -> req.body().onComplete(b -> {
          posts.incrementAndGet();
          req.response().setStatusCode(500).end("down");
        })).listen(0, SINK));
    String url = "http://" + SINK + ":" + sink.actualPort() + "/hook";
    Map<String, AtomicInteger> registered = new ConcurrentHashMap<>();
    List<String> ids = new java.util.concurrent.CopyOnWriteArrayList<>();
    measure("webhooks: 20 registrations x 20 rules to one URL answering 500 (5 tries each: 2,000 POSTs unbounded), 40 s", 40, () -> {
      Future<?> chain = Future.succeededFuture();
      for (int i = 0; i < 20; i++) {
        chain = chain.compose(x -> client.post(PORT, HOST, "/api/scenarios").sendJsonObject(webhookScenario(url, 20)).onComplete(ar -> {
          count(registered, new AtomicLong(), ar);
          if (ar.succeeded() && ar.result().statusCode() == 201) ids.add(ar.result().bodyAsJsonObject().getString("id"));
        }));
      }
      return chain.compose(x -> {
        io.vertx.core.Promise<Void> p = io.vertx.core.Promise.promise();
        vertx.setTimer(40_000, t -> p.complete());
        return p.future();
      });
    }, () -> "registrations: " + statuses(registered) + "; POSTs the URL received in 40 s: " + posts.get());
    for (String id : ids) BenchSupport.await(client.delete(PORT, HOST, "/api/scenarios/" + id).send());
    BenchSupport.await(sink.close());
  }

  /** A one-workload scenario whose {@code rules} alerts (below a total it is always below) all go to {@code url}. */
  static JsonObject webhookScenario(String url, int rules) {
    JsonArray alerts = new JsonArray();
    for (int i = 0; i < rules; i++) {
      alerts.add(new JsonObject().put("when", "totalBelow").put("amount", 1_000_000_000 + i)
          .put("to", new JsonObject().put("type", "json").put("url", url)));
    }
    return new JsonObject().put("currency", "USD").put("workloads", new JsonArray().add(new JsonObject().put("kind", "inference")
        .put("paramsBillions", 7).put("peakQps", 1).put("secondsPerRequest", 1).put("concurrentPerCard", 1))).put("alerts", alerts);
  }

  /**
   * The SQLite store overwritten with random bytes under the running server (after another
   * connection wrote to it, so that the server reads its pages again): what a history route and
   * /health answer; then the file put back, and /health again. Not an attack a client can make;
   * what a disk fault looks like from outside.
   */
  static void corruptStore() throws Exception {
    Path db = ROOT.resolve("data/gpurent.db");
    HttpResponse<Buffer> taken = BenchSupport.await(client.post(PORT, HOST, "/api/admin/snapshot").bearerTokenAuthentication(TOKEN).send());
    byte[] sound = touched(db);
    byte[] garbage = new byte[sound.length];
    ThreadLocalRandom.current().nextBytes(garbage);
    Files.write(db, garbage);
    int history = BenchSupport.await(client.get(PORT, HOST, "/api/snapshots").send()).statusCode();
    System.out.println("store corrupted while running (snapshot " + taken.statusCode() + " before): GET /api/snapshots " + history
        + "; /health " + healthLine());
    Files.write(db, sound);
    touched(db);
    int again = BenchSupport.await(client.get(PORT, HOST, "/api/snapshots").send()).statusCode();
    System.out.println("store put back: GET /api/snapshots " + again + "; /health " + healthLine());
  }

  /** Writes to the store from another connection and checkpoints it; the file's bytes after. */
  static byte[] touched(Path db) throws Exception {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db); java.sql.Statement st = c.createStatement()) {
      st.execute("PRAGMA user_version = " + ThreadLocalRandom.current().nextInt(1, 1000));
      st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    }
    return Files.readAllBytes(db);
  }

  /** /health's status code, status and the store check, in one line. */
  static String healthLine() throws Exception {
    HttpResponse<Buffer> r = BenchSupport.await(client.get(PORT, HOST, "/health").send());
    JsonObject h = r.bodyAsJsonObject();
    JsonObject store = h.getJsonObject("checks", new JsonObject()).getJsonObject("store", new JsonObject());
    return r.statusCode() + " " + h.getString("status") + ", failing " + h.getJsonArray("failing") + ", store: " + store.getString("detail");
  }

  /**
   * 10,000 anonymous WebSocket upgrades, each closed at once, 16 at a time, for at most 60 s: every
   * one must give its connection back (they once filled http.maxConnections for good).
   */
  static void webSocketCycles() throws Exception {
    int n = 10_000;
    AtomicInteger upgraded = new AtomicInteger(), failed = new AtomicInteger();
    AtomicInteger left = new AtomicInteger(n);
    int[] connections = {health().getInteger("connections", -1)};
    io.vertx.core.http.WebSocketClient ws = vertx.createWebSocketClient();
    measure("websocket: 10,000 upgrades closed at once, 16 at a time, up to 60 s", 0, () -> {
      List<Future<?>> workers = new ArrayList<>();
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      for (int i = 0; i < 16; i++) {
        workers.add(loop(end, left, () -> ws.connect(PORT, HOST, "/ws").compose(s -> {
          upgraded.incrementAndGet();
          return s.close();
        }).onFailure(e -> failed.incrementAndGet())));
      }
      return Future.all(workers);
    }, () -> {
      // what the server counts once the last closes have reached it (the bench's own kept-alive connections included)
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      JsonObject h;
      do {
        h = health();
      } while (h.getInteger("connections", -1) > connections[0] && System.nanoTime() < until && sleep(100));
      return upgraded.get() + " upgraded and closed, " + failed.get() + " refused or failed; /health connections "
          + connections[0] + " before, " + h.getInteger("connections", -1) + " after, " + h.getInteger("dashboards", -1) + " dashboards";
    });
    BenchSupport.await(ws.close());
  }

  /**
   * 4 WebSocket clients that send pings (125 bytes each, the most a control frame holds) as fast
   * as they can and never read a pong, for at most 20 s each; a server that answered every one
   * held gigabytes of pongs.
   */
  static void pingFlood() throws Exception {
    int clients = 4;
    AtomicInteger upgraded = new AtomicInteger(), cut = new AtomicInteger();
    AtomicLong bytes = new AtomicLong(), lastCut = new AtomicLong();
    long started = System.nanoTime();
    double[] answered = {pingsAnswered(), 0};
    measure("websocket: 4 clients flood pings and never read, up to 20 s", 0, () -> vertx.executeBlocking(() -> {
      List<Thread> threads = new ArrayList<>();
      byte[] ping = control(0x9, new byte[125]);
      for (int c = 0; c < clients; c++) {
        Thread t = new Thread(() -> {
          try (Socket s = new Socket(HOST, PORT)) {
            s.setReceiveBufferSize(4096);
            upgrade(s);
            upgraded.incrementAndGet();
            OutputStream out = s.getOutputStream();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < end) {
              out.write(ping);
              bytes.addAndGet(ping.length);
            }
          } catch (IOException e) {
            cut.incrementAndGet();
            lastCut.set(System.nanoTime());
          }
        }, "ping-flood-" + c);
        t.setDaemon(true);
        t.start();
        threads.add(t);
      }
      for (Thread t : threads) t.join(30_000);
      answered[1] = pingsAnswered();
      return null;
    }), () -> upgraded.get() + " upgraded, " + String.format(Locale.ROOT, "%.1f MB", bytes.get() / 1e6) + " of pings sent; " + cut.get()
        + " cut off by the server, the last " + (lastCut.get() == 0 ? "-" : String.format(Locale.ROOT, "%.1f s", (lastCut.get() - started) / 1e9))
        + " after the start; the server answered " + String.format(Locale.ROOT, "%.0f", answered[1] - answered[0]) + " pings");
  }

  static JsonObject health() {
    try {
      return BenchSupport.await(client.get(PORT, HOST, "/health").send(), 10).bodyAsJsonObject();
    } catch (Exception e) {
      return new JsonObject();
    }
  }

  /** The server's count of pings it answered (gpurent_ws_pings_total, outcome answered); NaN before it counted them. */
  static double pingsAnswered() {
    try {
      String text = BenchSupport.await(client.get(PORT, HOST, "/metrics").send(), 10).bodyAsString();
      for (String line : text.split("\n")) {
        if (line.startsWith("gpurent_ws_pings_total{") && line.contains("outcome=\"answered\"")) {
          return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
      }
    } catch (Exception e) {
      // counted as unknown
    }
    return Double.NaN;
  }

  static boolean sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    return true;
  }

  // ------------------------------------------------------------------ measuring

  /**
   * Runs {@code attack} while sampling the server's heap and a well-behaved client's /health
   * latency, then prints one line of figures.
   */
  static void measure(String name, int seconds, Supplier<Future<?>> attack, Supplier<String> outcome) throws Exception {
    System.out.println(name);
    heapAfterGc();
    double[] peak = {heapNow()};
    long sampler = vertx.setPeriodic(100, id -> vertx.executeBlocking(() -> {
      peak[0] = Math.max(peak[0], heapNow());
      return null;
    }));
    Histogram health = BenchSupport.micros();
    AtomicInteger errors = new AtomicInteger(), polls = new AtomicInteger();
    WebClient polite = WebClient.create(vertx, new WebClientOptions().setKeepAlive(true),
        new io.vertx.core.http.PoolOptions().setHttp1MaxSize(1));
    boolean[] running = {true};
    Future<Void> poller = politeLoop(polite, health, errors, polls, running);
    long t0 = System.nanoTime();
    try {
      BenchSupport.await(attack.get(), 300);
    } catch (Exception e) {
      System.out.println("  attack ended: " + e);
    }
    running[0] = false;
    BenchSupport.await(poller, 30);
    vertx.cancelTimer(sampler);
    polite.close();
    double after = heapAfterGc();
    System.out.println(String.format(Locale.ROOT, "  attacker got: %s", outcome.get()));
    System.out.println(String.format(Locale.ROOT, "  server heap: peak %s, after GC %s; /health for a well-behaved client over %.1f s: "
            + "%d polls, p50 %s ms, p99 %s ms, max %s ms, %d errors", mib(peak[0]), mib(after), (System.nanoTime() - t0) / 1e9,
        polls.get(), BenchSupport.ms(health.getValueAtPercentile(50)), BenchSupport.ms(health.getValueAtPercentile(99)),
        BenchSupport.ms(health.getMaxValue()), errors.get()));
  }

  /** GET /health every 20 ms on one kept-alive connection, until told to stop. */
  static Future<Void> politeLoop(WebClient polite, Histogram h, AtomicInteger errors, AtomicInteger polls, boolean[] running) {
    io.vertx.core.Promise<Void> done = io.vertx.core.Promise.promise();
    Runnable[] next = new Runnable[1];
    next[0] = () -> {
      if (!running[0]) {
        done.tryComplete();
        return;
      }
      long t = System.nanoTime();
      polite.get(PORT, HOST, "/health").timeout(10_000).send().onComplete(ar -> {
        polls.incrementAndGet();
        h.recordValue(Math.min(h.getHighestTrackableValue(), (System.nanoTime() - t) / 1000));
        if (ar.failed() || ar.result().statusCode() != 200) errors.incrementAndGet();
        vertx.setTimer(20, id -> next[0].run());
      });
    };
    next[0].run();
    return done.future();
  }

  static Future<Void> loop(long end, Supplier<Future<?>> send) {
    if (System.nanoTime() > end) return Future.succeededFuture();
    return send.get().transform(x -> loop(end, send));
  }

  /** {@link #loop} for at most {@code left} sends in all (shared by the loops that take from it). */
  static Future<Void> loop(long end, AtomicInteger left, Supplier<Future<?>> send) {
    if (System.nanoTime() > end || left.decrementAndGet() < 0) return Future.succeededFuture();
    return send.get().transform(x -> loop(end, left, send));
  }

  static void count(Map<String, AtomicInteger> got, AtomicLong bytes, io.vertx.core.AsyncResult<HttpResponse<Buffer>> ar) {
    if (ar == null) return;
    String key = ar.succeeded() ? ar.result().statusCode() + reason(ar.result()) : "failed (" + ar.cause().getClass().getSimpleName() + ")";
    got.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    if (ar.succeeded() && ar.result().body() != null) {
      bytes.addAndGet(ar.result().body().length());
      largest.accumulateAndGet(ar.result().body().length(), Math::max);
    }
  }

  /** Why a 429 or 503 was answered, from its error text: which limit refused. */
  static String reason(HttpResponse<Buffer> r) {
    if (r.statusCode() != 429 && r.statusCode() != 503) return "";
    String error = r.bodyAsString() == null ? "" : r.bodyAsString();
    if (error.contains("ranking budget")) return " (memory budget)";
    if (error.contains("per client")) return " (per-client cap)";
    if (error.contains("waiting; try again")) return " (queue full)";
    if (error.contains("waited too long")) return " (queued past the timeout)";
    return "";
  }

  static String statuses(Map<String, AtomicInteger> got) {
    StringBuilder sb = new StringBuilder();
    new TreeMap<>(got).forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(v.get()).append(" x ").append(k));
    return sb.length() == 0 ? "nothing" : sb.toString();
  }

  /** The server's heap in use now, from its /metrics (every heap pool). */
  static double heapNow() {
    try {
      String text = BenchSupport.await(client.get(PORT, HOST, "/metrics").send(), 10).bodyAsString();
      double sum = 0;
      for (String line : text.split("\n")) {
        if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
      return sum / 1048576.0;
    } catch (Exception e) {
      return Double.NaN;
    }
  }

  /** A full GC in the server (jcmd), then its heap in use. */
  static double heapAfterGc() throws Exception {
    if (PID > 0) {
      Process p = new ProcessBuilder("jcmd", Long.toString(PID), "GC.run").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      p.waitFor(60, TimeUnit.SECONDS);
    }
    return heapNow();
  }

  static String mib(double v) {
    return String.format(Locale.ROOT, "%.0f MiB", v);
  }

  static String ms(long nanos) {
    return String.format(Locale.ROOT, "%.0f ms", nanos / 1e6);
  }

  static String shorten(String s) {
    String one = s.replace('\n', ' ');
    return one.length() > 160 ? one.substring(0, 160) + "..." : one;
  }

  // ------------------------------------------------------------------ a raw WebSocket client that never reads

  static void upgrade(Socket s) throws IOException {
    byte[] key = new byte[16];
    ThreadLocalRandom.current().nextBytes(key);
    String req = "GET /ws HTTP/1.1\r\nHost: " + HOST + ":" + PORT + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key) + "\r\nSec-WebSocket-Version: 13\r\n\r\n";
    s.getOutputStream().write(req.getBytes(StandardCharsets.US_ASCII));
    InputStream in = s.getInputStream();
    int state = 0;
    while (state < 4) {  // read the 101's headers, up to the blank line
      int b = in.read();
      if (b < 0) throw new IOException("closed during the upgrade");
      state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
    }
  }

  /** One masked control frame, of at most 125 bytes. */
  static byte[] control(int opcode, byte[] payload) {
    byte[] f = new byte[6 + payload.length];
    f[0] = (byte) (0x80 | opcode);
    f[1] = (byte) (0x80 | payload.length);
    byte[] mask = new byte[4];
    ThreadLocalRandom.current().nextBytes(mask);
    System.arraycopy(mask, 0, f, 2, 4);
    for (int i = 0; i < payload.length; i++) f[6 + i] = (byte) (payload[i] ^ mask[i & 3]);
    return f;
  }

  /** One masked text frame (RFC 6455 requires clients to mask). */
  static void frame(OutputStream out, String text) throws IOException {
    byte[] payload = text.getBytes(StandardCharsets.UTF_8);
    java.io.ByteArrayOutputStream f = new java.io.ByteArrayOutputStream(payload.length + 14);
    f.write(0x81);
    if (payload.length < 126) {
      f.write(0x80 | payload.length);
    } else if (payload.length < 65536) {
      f.write(0x80 | 126);
      f.write(payload.length >>> 8);
      f.write(payload.length);
    } else {
      f.write(0x80 | 127);
      for (int i = 7; i >= 0; i--) f.write((int) ((long) payload.length >>> (8 * i)));
    }
    byte[] mask = new byte[4];
    ThreadLocalRandom.current().nextBytes(mask);
    f.write(mask);
    for (int i = 0; i < payload.length; i++) f.write(payload[i] ^ mask[i & 3]);
    out.write(f.toByteArray());
  }
}
