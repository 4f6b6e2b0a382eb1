package dev.gpurent.bench;

import static dev.gpurent.bench.BenchSupport.await;

import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.store.EmbeddedPg;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The service of {@link LiveRerank} as a cluster: N gpurent nodes, each its own JVM running
 * {@code gpurent serve --cluster} on its own copy of the sample root, joined by Hazelcast's TCP-IP
 * join on loopback and sharing one PostgreSQL ({@link EmbeddedPg}, a fresh schema per run). Node 1
 * starts alone, so it takes every vendor's lease (it fetches, the others get its quotes over the
 * event bus); the others join. The book the driver checks rankings against comes from a reference:
 * a single, in-process service on one more copy of the root, with no live scenario, refreshed after
 * each measured change (so it takes no CPU while the nodes work). Each node's output goes to
 * {@code target/live-cluster-n<k>.log}.
 */
final class LiveCluster implements LiveRerank.Service {

  /**
   * Each node's heap: with 10,000 live scenarios over 3 nodes each node held 2.4-2.6 GB after its
   * collections, and at 3g the nodes spent most of a change collecting (minor and full GCs of 25-55 s
   * over 5 changes); 4g leaves room, and 3 x 4 GB fits the 24 GB machine beside the other builds.
   */
  static final String NODE_HEAP = System.getProperty("bench.nodeHeap", "4g");
  /**
   * Each node's options after config/jvm.options: a young generation of at least a quarter of the
   * heap, as README's "Run a cluster" advises for nodes sharing cores. Three nodes on two cores cannot
   * meet the 50 ms pause goal (a pause waits for the CPU), so G1 shrank the young generation to 150 MB
   * and collected three times a change: GC pauses 1.0-2.2 s a change summed, 0.1-0.7 s with the floor.
   */
  static final String CO_LOCATED = "-XX:+UnlockExperimentalVMOptions -XX:G1NewSizePercent=25";
  /** More JVM options for each node, space-separated ({@code {k}}: the node's number), e.g. {@code -Xlog:gc:target/gc-n{k}.log}. */
  static final String NODE_JVM = System.getProperty("bench.nodeJvm", "");
  static final Pattern SERVING = Pattern.compile("gpurent: serving on http://[^:]+:(\\d+)/");

  private final List<Process> nodes = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();
  private final Bootstrap.Running reference;
  private final String vendor;
  private int fetcher = -1;

  private LiveCluster(Bootstrap.Running reference, String vendor) {
    this.reference = reference;
    this.vendor = vendor;
  }

  /** Starts the nodes on copies of {@code root} (already configured for the run by the caller), and the reference. */
  static LiveCluster start(Path root, int count, String vendor) throws Exception {
    String pg = EmbeddedPg.freshUrl();
    int[] hz = new int[count];
    JsonArray members = new JsonArray();
    for (int k = 0; k < count; k++) {
      hz[k] = dev.gpurent.testing.FreePorts.belowEphemeral();
      members.add("127.0.0.1:" + hz[k]);
    }
    Path ref = copy(root, root.resolveSibling(root.getFileName() + "-ref"));
    LiveCluster c = new LiveCluster(await(new Bootstrap(ref, Map.of("GPURENT_ADMIN_TOKEN", BenchSupport.TOKEN), Clock.systemUTC())
        .start(), 120), vendor);
    try {
      List<CompletableFuture<Integer>> serving = new ArrayList<>();
      for (int k = 0; k < count; k++) {
        Path node = copy(root, root.resolveSibling(root.getFileName() + "-n" + (k + 1)));
        Path cfg = node.resolve("config/gpurent.yaml");
        JsonObject config = new JsonObject(BenchSupport.map(YamlFiles.load(cfg)));
        config.getJsonObject("store").put("url", pg);
        config.put("cluster", config.getJsonObject("cluster").put("enabled", true).put("host", "127.0.0.1").put("port", hz[k])
            .put("members", members));
        Files.writeString(cfg, config.encodePrettily());
        serving.add(c.launch(node, k + 1));
        // node 1 alone first: it takes every lease
        if (k == 0) c.ports.add(serving.get(0).get(180, TimeUnit.SECONDS));
      }
      for (int k = 1; k < count; k++) c.ports.add(serving.get(k).get(180, TimeUnit.SECONDS));
    } catch (Exception e) {
      c.close();
      throw e;
    }
    return c;
  }

  private CompletableFuture<Integer> launch(Path root, int k) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>(List.of(java.toString()));
    // each node as ./gpurent runs it: config/jvm.options (read from the checkout the bench runs in)
    for (String o : Files.readAllLines(Path.of("config/jvm.options"))) {
      if (!o.isBlank() && !o.startsWith("#")) command.add(o.trim());
    }
    for (String o : (CO_LOCATED + " " + NODE_JVM).split(" ")) {
      if (!o.isBlank()) command.add(o.replace("{k}", Integer.toString(k)));
    }
    command.addAll(List.of("-Xmx" + NODE_HEAP, "-Djava.net.preferIPv4Stack=true", "-Dvertx.cacheDirBase=" + root.resolve("vertx-cache"),
        "-cp", System.getProperty("java.class.path"), "dev.gpurent.Main", "serve", "--cluster", "--root", root.toString()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("GPURENT_ADMIN_TOKEN", BenchSupport.TOKEN);
    Process p = pb.start();
    nodes.add(p);
    // a driver stopped by a signal leaves no node running
    Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly));
    CompletableFuture<Integer> port = new CompletableFuture<>();
    Path log = Path.of("target", "live-cluster-n" + k + ".log");
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
           Writer w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
        String line;
        while ((line = r.readLine()) != null) {
          w.write(line + "\n");
          w.flush();
          Matcher m = SERVING.matcher(line);
          if (m.find()) port.complete(Integer.parseInt(m.group(1)));
        }
      } catch (IOException ignored) {
        // the node ended
      }
      port.completeExceptionally(new IllegalStateException("node " + k + " ended before serving; see " + log));
    }, "node-" + k + "-output");
    t.setDaemon(true);
    t.start();
    return port;
  }

  @Override
  public List<Integer> ports() {
    return ports;
  }

  /** The node holding the vendor's lease: the one whose refresh does not answer that another node fetches it. */
  @Override
  public int fetcher(WebClient http) throws Exception {
    if (fetcher > 0) return fetcher;
    for (int port : ports) {
      var reply = await(http.post(port, "127.0.0.1", "/api/admin/refresh?vendor=" + vendor).bearerTokenAuthentication(BenchSupport.TOKEN)
          .send(), 120);
      if (reply.statusCode() == 200 && !reply.bodyAsJsonObject().getJsonObject("failed").containsKey(vendor)) return fetcher = port;
    }
    throw new IllegalStateException("no node fetches " + vendor);
  }

  @Override
  public QuoteBook book() throws Exception {
    return LiveRerank.book(reference.vertx());
  }

  @Override
  public void follow(WebClient http) throws Exception {
    LiveRerank.refresh(http, reference.port(), "?vendor=" + vendor);
  }

  /** The nodes' heaps summed, each after a full GC (jcmd GC.run), from their JVM metrics. */
  @Override
  public double heapAfterGcMiB(WebClient http) throws Exception {
    double bytes = 0;
    for (int i = 0; i < nodes.size(); i++) {
      Process gc = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
          Long.toString(nodes.get(i).pid()), "GC.run").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      gc.waitFor(60, TimeUnit.SECONDS);
      String text = await(http.get(ports.get(i), "127.0.0.1", "/metrics").send()).bodyAsString();
      for (String line : text.split("\n")) {
        if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
          bytes += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
      }
    }
    return bytes / (1 << 20);
  }

  @Override
  public void close() throws Exception {
    for (Process p : nodes) p.destroy();  // SIGTERM: serve closes gracefully
    for (Process p : nodes) {
      if (!p.waitFor(40, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
    }
    await(reference.close(), 60);
  }

  private static Path copy(Path from, Path to) throws IOException {
    BenchSupport.deleteTree(to);
    try (var files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path t = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(t);
        } else if (!f.startsWith(from.resolve("data"))) {  // the single node's store stays behind
          Files.copy(f, t, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return to;
  }
}
