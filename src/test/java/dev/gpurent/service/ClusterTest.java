package dev.gpurent.service;
import dev.gpurent.testing.ClusterChild;
import dev.gpurent.testing.FreePorts;
import dev.gpurent.testing.ServiceFixtures;

import static dev.gpurent.testing.ServiceFixtures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Slow;
import dev.gpurent.store.EmbeddedPg;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three gpurent nodes in three JVMs on loopback ({@link ClusterChild}), joined by Hazelcast's
 * TCP-IP join, sharing one PostgreSQL ({@link EmbeddedPg}), fetching RunPod's and Vast's recorded
 * payloads from a stub vendor API that logs which node fetched which vendor, and when (each
 * node's adapters name their own path, {@code /n<k>/<vendor>}; every answer takes 300 ms, so two
 * fetches at once would overlap in the log). Node 1 starts alone and takes every lease; nodes 2
 * and 3 join. A scenario registered on node 1 is ranked and pushed to a dashboard on node 3; node
 * 1 is killed with SIGKILL: another node fetches each of its vendors within 2 x the lease (the
 * figure is printed), the dashboards on nodes 2 and 3 receive the ranking of a price change, and
 * no vendor is ever fetched by two nodes at once, nor by more than one node after the kill; a
 * scenario deleted on node 2 is deleted on node 3's dashboard; node 1 restarted has every
 * scenario there is, and fetches nothing (its vendors' leases are held).
 */
@Slow
class ClusterTest {

  static final long LEASE_MS = 4_000;
  static final String[] VENDORS = {"runpod", "vast"};

  /** One fetch as the stub saw it. */
  record Fetch(String node, String vendor, long start, long end) {}

  @TempDir Path tmp;
  Vertx vertx;
  WebClient client;
  final List<Fetch> fetches = new CopyOnWriteArrayList<>();
  final Map<String, Buffer> payloads = new ConcurrentHashMap<>();
  final List<Node> nodes = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (Node n : nodes) n.process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
    if (vertx != null) await(vertx.close());
  }

  @Test
  void three_nodes_share_fetching_ranking_and_scenarios_and_outlive_a_killed_holder() throws Exception {
    long began = System.nanoTime();
    vertx = Vertx.vertx();
    client = WebClient.create(vertx);
    payloads.put("runpod", Buffer.buffer(Files.readAllBytes(ServiceFixtures.DATA.resolve("runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json"))));
    payloads.put("vast", Buffer.buffer(Files.readAllBytes(ServiceFixtures.DATA.resolve("skypilot-catalog-format/anycloud-sh/vast/vms.gpu.csv"))));
    HttpServer stub = await(vertx.createHttpServer().requestHandler(req -> {
      String[] path = req.path().split("/");  // "", "n1", "runpod"
      long start = System.currentTimeMillis();
      vertx.setTimer(300, t -> req.response().end(payloads.get(path[2]))
          .onComplete(x -> fetches.add(new Fetch(path[1], path[2], start, System.currentTimeMillis()))));
    }).listen(0, "127.0.0.1"));
    String pg = EmbeddedPg.freshUrl();
    int[] ports = {FreePorts.belowEphemeral(), FreePorts.belowEphemeral(), FreePorts.belowEphemeral()};
    JsonArray members = new JsonArray();
    for (int p : ports) members.add("127.0.0.1:" + p);
    Path[] roots = new Path[3];
    for (int k = 0; k < 3; k++) roots[k] = nodeRoot(k + 1, stub.actualPort(), pg, ports[k], members);

    Node n1 = start(roots[0], "n1");
    // node 1 alone takes every lease and fetches every vendor
    until(30, () -> fetchedBy("n1").containsAll(Set.of(VENDORS)), "node 1 fetches both vendors");
    Node[] joining = {start(roots[1], "n2"), start(roots[2], "n3")};
    Node n2 = joining[0].awaitServing(90);
    Node n3 = joining[1].awaitServing(90);
    long joined = System.nanoTime();
    // nodes 2 and 3 got node 1's quotes over the event bus
    for (Node n : List.of(n2, n3)) {
      until(30, () -> quotes(n, "runpod") == 147 && quotes(n, "vast") > 0, n.name + " has node 1's quotes");
    }

    Dashboard d2 = dashboard(n2);
    Dashboard d3 = dashboard(n3);
    String a = register(n1, ServiceFixtures.scenario("team-small.yaml"));
    until(10, () -> status(n3, "/api/scenarios/" + a + "/ranking") == 200, "node 3 knows the scenario registered on node 1");
    d3.subscribe(a);
    JsonObject first = d3.next(m -> a.equals(m.getString("scenario")) && "ranking".equals(m.getString("type")), 30);
    List<String> ranked = ScenarioRestartTest.comparable(first.getJsonObject("ranking"));
    assertEquals(List.of("guide-reference 1800.00 CNY", "runpod 2303.92 CNY", "vast 3209.34 CNY"), ranked);
    assertEquals(ranked, ScenarioRestartTest.comparable(ranking(n1, a)));
    d2.subscribe(a);
    d2.next(m -> a.equals(m.getString("scenario")) && "ranking".equals(m.getString("type")), 30);
    String b = register(n2, ServiceFixtures.scenario("team-medium.yaml"));
    // another node learns of a registration a moment after its 201 (the news crosses the event bus):
    // a dashboard there follows it once that node answers for it, as the page does after "no live scenario"
    until(10, () -> status(n3, "/api/scenarios/" + b + "/ranking") == 200, "node 3 knows the scenario registered on node 2");
    d3.subscribe(b);
    d3.next(m -> b.equals(m.getString("scenario")) && "ranking".equals(m.getString("type")), 30);
    assertEquals(Set.of("n1"), fetches.stream().map(Fetch::node).collect(Collectors.toSet()), "only node 1 fetches: " + fetches);

    n1.process.destroyForcibly();  // SIGKILL
    long killed = System.currentTimeMillis();
    assertTrue(n1.process.waitFor(20, TimeUnit.SECONDS));
    Map<String, Long> takeover = new java.util.LinkedHashMap<>();
    until(4 * LEASE_MS / 1000 + 20, () -> {
      for (String v : VENDORS) {
        fetches.stream().filter(f -> f.vendor.equals(v) && !f.node.equals("n1") && f.start >= killed).findFirst()
            .ifPresent(f -> takeover.putIfAbsent(v, f.start - killed));
      }
      return takeover.size() == VENDORS.length;
    }, "nodes 2 and 3 take over the vendors");
    System.out.println("cluster test: after SIGKILL of the lease holder, vendors fetched again by another node after "
        + takeover + " ms (lease " + LEASE_MS + " ms, failure detection 3000 ms)");
    for (Map.Entry<String, Long> t : takeover.entrySet()) {
      assertTrue(t.getValue() <= 2 * LEASE_MS, t.getKey() + " was fetched again " + t.getValue() + " ms after the kill, past 2 x the lease");
    }

    // a price change at RunPod, fetched by its new holder, reaches the dashboards that survived
    payloads.computeIfPresent("runpod", (k, body) -> Buffer.buffer(ServiceFixtures.scale(body.toString(), 0.5)));
    for (Dashboard d : List.of(d2, d3)) {
      JsonObject moved = d.next(m -> a.equals(m.getString("scenario")) && "ranking".equals(m.getString("type"))
          && !ScenarioRestartTest.comparable(m.getJsonObject("ranking")).equals(ranked), 30);
      // RunPod's 4090 at half price: 898.54 a month for the card (730 h) plus 506.83 of storage
      assertEquals(List.of("runpod 1405.37 CNY", "guide-reference 1800.00 CNY", "vast 3209.34 CNY"),
          ScenarioRestartTest.comparable(moved.getJsonObject("ranking")));
    }

    // deleted on node 2, gone from node 3's dashboard
    assertEquals(204, await(client.delete(n2.port, "127.0.0.1", "/api/scenarios/" + b).send()).statusCode());
    JsonObject gone = d3.next(m -> b.equals(m.getString("scenario")) && "error".equals(m.getString("type")), 30);
    assertEquals("the scenario was deleted", gone.getString("error"));

    // node 1 comes back with every scenario there is, and fetches nothing: the leases are held
    Node again = start(roots[0], "n1").awaitServing(90);
    long restarted = System.currentTimeMillis();
    until(30, () -> status(again, "/api/scenarios/" + a + "/ranking") == 200, "the restarted node answers for scenario A");
    assertEquals(ranked.size(), ScenarioRestartTest.comparable(ranking(again, a)).size());
    assertEquals(404, status(again, "/api/scenarios/" + b + "/ranking"));
    Thread.sleep(LEASE_MS);
    assertEquals(List.of(), fetches.stream().filter(f -> f.node.equals("n1") && f.start >= restarted).toList(),
        "the restarted node fetched what others hold");

    // never two nodes fetching one vendor at once, and one node per vendor after the kill
    for (String v : VENDORS) {
      List<Fetch> of = fetches.stream().filter(f -> f.vendor.equals(v)).toList();
      for (Fetch x : of) {
        for (Fetch y : of) {
          if (!x.node.equals(y.node)) assertTrue(x.end < y.start || y.end < x.start, "overlapping fetches of " + v + ": " + x + " " + y);
        }
      }
      assertEquals(1, of.stream().filter(f -> f.start >= killed).map(Fetch::node).distinct().count(), v + " after the kill: " + of);
    }
    System.out.println("cluster test: " + fetches.size() + " fetches logged; nodes 2 and 3 joined "
        + (joined - began) / 1_000_000 + " ms after the test began; whole test " + (System.nanoTime() - began) / 1_000_000 + " ms");
  }

  // ------------------------------------------------------------------ the nodes

  private Path nodeRoot(int k, int stubPort, String pg, int port, JsonArray members) throws IOException {
    Path root = tmp.resolve("node" + k);
    Files.createDirectories(root);
    ServiceFixtures.writeRoot(root, name -> "http://127.0.0.1:" + stubPort + "/n" + k + "/" + name);
    for (String v : VENDORS) {
      Path def = root.resolve("adapters/" + v + ".yaml");
      Files.writeString(def, new JsonObject(Files.readString(def)).put("refresh", "2s").encodePrettily());
    }
    ServiceFixtures.editConfig(root, c -> {
      c.getJsonObject("store").put("url", pg).put("pool", 2);
      c.getJsonObject("quotes").put("cacheDir", "data/last-good");
      c.put("cluster", new JsonObject().put("enabled", true).put("host", "127.0.0.1").put("port", port).put("members", members)
          .put("leaseTtl", LEASE_MS + "ms").put("failureDetection", "3s"));
    });
    return root;
  }

  private List<String> fetchedBy(String node) {
    return fetches.stream().filter(f -> f.node.equals(node)).map(Fetch::vendor).distinct().toList();
  }

  private Node start(Path root, String name) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Process p = new ProcessBuilder(java.toString(), "-Xmx320m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
        "-Djava.net.preferIPv4Stack=true", "-Dvertx.cacheDirBase=" + root.resolve("vertx-cache"),
        "-cp", cp, ClusterChild.class.getName(), root.toString())
        .redirectErrorStream(true).start();
    Node n = new Node(name, p, new LinkedBlockingQueue<>(), new CopyOnWriteArrayList<>());
    // each node's whole output is kept under target/ for a failure's post-mortem
    Path logFile = Path.of("target", "cluster-test-" + name + ".log");
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
           Writer w = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
               StandardOpenOption.APPEND)) {
        String line;
        while ((line = r.readLine()) != null) {
          w.write(line + "\n");
          w.flush();
          n.log.add(line);
          if (line.startsWith("serving ") || line.startsWith("failed ")) n.lines.add(line);
        }
      } catch (IOException ignored) {
        // the node died
      }
      n.lines.add("<eof>");
    }, name + "-output");
    t.setDaemon(true);
    t.start();
    nodes.add(n);
    return name.equals("n1") && nodes.size() == 1 ? n.awaitServing(90) : n;
  }

  /** A node JVM; {@code port} its HTTP port once it serves. */
  static final class Node {
    final String name;
    final Process process;
    final BlockingQueue<String> lines;
    final List<String> log;
    int port;

    Node(String name, Process process, BlockingQueue<String> lines, List<String> log) {
      this.name = name;
      this.process = process;
      this.lines = lines;
      this.log = log;
    }

    Node awaitServing(int seconds) throws InterruptedException {
      String l = lines.poll(seconds, TimeUnit.SECONDS);
      if (l == null || !l.startsWith("serving ")) {
        throw new AssertionError(name + " did not start (" + l + "):\n" + String.join("\n", log.subList(Math.max(0, log.size() - 40), log.size())));
      }
      port = Integer.parseInt(l.substring("serving ".length()));
      return this;
    }
  }

  // ------------------------------------------------------------------ talking to them

  private int quotes(Node n, String vendor) {
    try {
      HttpResponse<Buffer> r = await(client.get(n.port, "127.0.0.1", "/api/vendors").send());
      return r.bodyAsJsonArray().stream().map(JsonObject.class::cast).filter(v -> v.getString("vendor").equals(vendor))
          .findFirst().map(v -> v.getInteger("quotes")).orElse(0);
    } catch (Exception e) {
      return -1;
    }
  }

  private String register(Node n, JsonObject scenario) throws Exception {
    HttpResponse<Buffer> r = await(client.post(n.port, "127.0.0.1", "/api/scenarios").sendJson(scenario));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject().getString("id");
  }

  private JsonObject ranking(Node n, String id) throws Exception {
    HttpResponse<Buffer> r = await(client.get(n.port, "127.0.0.1", "/api/scenarios/" + id + "/ranking").send());
    assertEquals(200, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  private int status(Node n, String path) {
    try {
      return await(client.get(n.port, "127.0.0.1", path).send()).statusCode();
    } catch (Exception e) {
      return -1;
    }
  }

  private Dashboard dashboard(Node n) throws Exception {
    WebSocket ws = ServiceFixtures.openSocket(vertx, n.port, "/ws");
    Dashboard d = new Dashboard(ws, new LinkedBlockingQueue<>());
    ws.textMessageHandler(text -> d.messages.add(new JsonObject(text)));
    return d;
  }

  /** A dashboard's socket and what it received. */
  record Dashboard(WebSocket ws, BlockingQueue<JsonObject> messages) {
    void subscribe(String id) {
      ws.writeTextMessage(new JsonObject().put("subscribe", new JsonArray().add(id)).encode());
    }

    /** The first message (from now on) that matches, waiting up to {@code seconds}. */
    JsonObject next(Predicate<JsonObject> wanted, int seconds) throws InterruptedException {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      List<String> seen = new ArrayList<>();
      while (System.nanoTime() < end) {
        JsonObject m = messages.poll(100, TimeUnit.MILLISECONDS);
        if (m == null) continue;
        if (wanted.test(m)) return m;
        seen.add(m.getString("type") + " " + m.getString("scenario") + ("error".equals(m.getString("type")) ? " (" + m.getValue("status") + " " + m.getString("error") + ")" : ""));
      }
      throw new AssertionError("no such message in " + seconds + " s; seen: " + seen);
    }
  }

  private static void until(long seconds, java.util.function.BooleanSupplier done, String what) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > end) throw new AssertionError("not within " + seconds + " s: " + what);
      Thread.sleep(100);
    }
  }
}
