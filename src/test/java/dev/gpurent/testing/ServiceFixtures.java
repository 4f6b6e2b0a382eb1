package dev.gpurent.testing;

import dev.gpurent.config.YamlFiles;
import dev.gpurent.service.boot.Bootstrap;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the service tests share: the root a test service runs on (the shipped configuration, RunPod
 * and Vast read from fake servers serving their recorded payloads), the admin token, waiting on a
 * Future, a WebSocket handshake that survives a busy machine, and readers of rankings and metrics.
 */
public final class ServiceFixtures {

  private ServiceFixtures() {}

  public static final Path DATA = Path.of("../shared/data");
  public static final String TOKEN = "test-admin-token";

  /** The first fetch of every vendor, done: what a service test waits for before it asks for rankings. */
  public static void refreshAll(WebClient client, Bootstrap.Running service) throws Exception {
    await(client.post(service.port(), "127.0.0.1", "/api/admin/refresh").bearerTokenAuthentication(TOKEN).send());
  }

  /** The fake vendors the service tests run against: RunPod's and Vast's recorded payloads, not yet started. */
  public static FakeVendorServer recordedVendors(Vertx vertx) throws IOException {
    return new FakeVendorServer(vertx)
        .serve("runpod", DATA.resolve("runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json"))
        .serve("vast", DATA.resolve("skypilot-catalog-format/anycloud-sh/vast/vms.gpu.csv"));
  }

  /** Rewrites the root's config/gpurent.yaml after {@code edit}: a test's own limits on the shipped configuration. */
  public static void editConfig(Path root, java.util.function.Consumer<JsonObject> edit) throws IOException {
    JsonObject config = new JsonObject(castMap(YamlFiles.load(root.resolve("config/gpurent.yaml"))));
    edit.accept(config);
    Files.writeString(root.resolve("config/gpurent.yaml"), config.encodePrettily());
  }

  public static void writeRoot(Path root, FakeVendorServer fake) throws IOException {
    writeRoot(root, fake::url);
  }

  /** The shipped configuration in {@code root}, RunPod and Vast read from {@code url.apply(vendor)}. */
  public static void writeRoot(Path root, java.util.function.UnaryOperator<String> url) throws IOException {
    Files.createDirectories(root.resolve("config"));
    Files.createDirectories(root.resolve("adapters"));
    Files.copy(Path.of("config/gpus.yaml"), root.resolve("config/gpus.yaml"));
    Files.copy(Path.of("config/regions.yaml"), root.resolve("config/regions.yaml"));
    Files.copy(Path.of("adapters/guide-reference.yaml"), root.resolve("adapters/guide-reference.yaml"));
    Files.createDirectories(root.resolve("config/scenarios"));
    try (var files = Files.list(Path.of("config/scenarios"))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) Files.copy(f, root.resolve("config/scenarios").resolve(f.getFileName()));
    }
    JsonObject config = new JsonObject(castMap(YamlFiles.load(Path.of("config/gpurent.yaml"))));
    config.getJsonObject("http").put("port", 0).put("bodyLimit", 20_000);
    config.getJsonObject("quotes").put("cacheDir", "").put("spotRisk", DATA.resolve("aws/spot-advisor/spot-advisor-data.2025-06-28.json").toString());
    config.getJsonObject("fx").put("source", DATA.resolve("ecb/eurofxref-daily.2025-05-09.xml").toAbsolutePath().toString());
    Files.writeString(root.resolve("config/gpurent.yaml"), config.encodePrettily());
    for (String v : new String[] {"runpod", "vast"}) {
      JsonObject def = new JsonObject(((Map<String, Object>) castMap(YamlFiles.load(Path.of("adapters", v + ".yaml")))));
      def.put("source", url.apply(v)).put("timeout", "30s");
      Files.writeString(root.resolve("adapters/" + v + ".yaml"), def.encodePrettily());
    }
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> castMap(Object o) {
    return (Map<String, Object>) o;
  }


  public static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  /**
   * A WebSocket opened to the service, the handshake tried up to three times: on two busy cores a
   * handshake can time out without anything being wrong with the server (issue 32).
   */
  public static WebSocket openSocket(Vertx vertx, int port, String uri) throws Exception {
    return openSocket(vertx, new io.vertx.core.http.WebSocketConnectOptions().setPort(port).setHost("127.0.0.1").setURI(uri));
  }

  public static WebSocket openSocket(Vertx vertx, io.vertx.core.http.WebSocketConnectOptions options) throws Exception {
    Exception last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return await(vertx.createWebSocketClient().connect(new io.vertx.core.http.WebSocketConnectOptions(options).setTimeout(20_000)));
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        last = e;
      }
    }
    throw last;
  }

  /** A shipped scenario with the guide's reference sheet ranked as a vendor, so that the guide's figures come out. */
  public static JsonObject scenario(String file) {
    return new JsonObject(castMap(YamlFiles.load(Path.of("config/scenarios", file)))).put("includeReference", true);
  }


  /** Every RunPod price times {@code factor}. */
  public static String scale(String body, double factor) {
    Matcher m = Pattern.compile("(Price\"\\s*:\\s*)([0-9.]+)").matcher(body);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      BigDecimal p = new BigDecimal(m.group(2)).multiply(BigDecimal.valueOf(factor)).stripTrailingZeros();
      m.appendReplacement(sb, m.group(1) + p.toPlainString());
    }
    return m.appendTail(sb).toString();
  }

  /** RunPod's monthly total in a ranking (as JSON), failing with the ranking's reasons when it has no plan. */
  public static String runpodTotal(JsonObject ranking) {
    return ranking.getJsonArray("plans").stream().map(JsonObject.class::cast).filter(p -> p.getString("vendor").equals("runpod"))
        .findFirst().orElseThrow(() -> new AssertionError("RunPod has no plan: " + ranking.getJsonArray("unavailable"))).getString("monthlyTotal");
  }

  /** One value of the service's GET /metrics (Prometheus text), its first series. */
  public static double metric(WebClient client, Bootstrap.Running service, String name) throws Exception {
    String text = await(client.get(service.port(), "127.0.0.1", "/metrics").send()).bodyAsString();
    for (String line : text.split("\n")) {
      if (line.startsWith(name + " ") || line.startsWith(name + "{")) return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }
    throw new AssertionError("no metric " + name);
  }
}
