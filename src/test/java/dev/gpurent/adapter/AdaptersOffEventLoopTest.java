package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.VertxInternal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every shipped vendor, fetched at once through Vert.x from its recorded payload (the AWS offer
 * file from a generated 30 MB file), with the blocked-thread threshold lowered to 100 ms: no
 * adapter may hold an event loop that long. Checked by the loop's stack: blocked inside gpurent
 * code fails the test.
 */
class AdaptersOffEventLoopTest {

  static final Path SKY = Path.of("../shared/data/skypilot-catalog-format");

  static Map<String, String> samples(Path awsFile) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("azure.yaml", SKY.resolve("anycloud-sh/azure/vms.gpu.csv").toString());
    m.put("gcp.yaml", SKY.resolve("anycloud-sh/gcp/vms.gpu.csv").toString());
    m.put("lambda.yaml", SKY.resolve("anycloud-sh/lambda/vms.gpu.csv").toString());
    m.put("vast.yaml", SKY.resolve("anycloud-sh/vast/vms.gpu.csv").toString());
    m.put("paperspace.yaml", SKY.resolve("skypilot-org/v6/paperspace/vms.csv").toString());
    m.put("digitalocean.yaml", SKY.resolve("skypilot-org/v6/do/vms.csv").toString());
    m.put("fluidstack.yaml", SKY.resolve("skypilot-org/v6/fluidstack/vms.csv").toString());
    m.put("cudo.yaml", SKY.resolve("skypilot-org/v8/cudo/vms.first36rows.csv").toString());
    m.put("hyperbolic.yaml", SKY.resolve("skypilot-org/v8/hyperbolic/vms.csv").toString());
    m.put("oci.yaml", SKY.resolve("skypilot-org/v8/oci/vms.gpu.af-casablanca-1.csv").toString());
    m.put("ibm.yaml", SKY.resolve("skypilot-org/v5/ibm/vms.csv").toString());
    m.put("scp.yaml", SKY.resolve("skypilot-org/v5/scp/vms.gpu.first-page.csv").toString());
    m.put("shadeform.yaml", SKY.resolve("skypilot-org/v8/shadeform/vms.csv").toString());
    m.put("primeintellect.yaml", SKY.resolve("skypilot-org/v8/primeintellect/vms.csv").toString());
    m.put("seeweb.yaml", SKY.resolve("skypilot-org/v8/seeweb/vms.csv").toString());
    m.put("hyperstack.yaml", SKY.resolve("skypilot-org/v8/hyperstack/vms.csv").toString());
    m.put("jarvislabs.yaml", SKY.resolve("skypilot-org/v8/jarvislabs/vms.csv").toString());
    m.put("mithril.yaml", SKY.resolve("skypilot-org/v8/mithril/vms.csv").toString());
    m.put("spheron.yaml", SKY.resolve("skypilot-org/v8/spheron/vms.csv").toString());
    m.put("daytona.yaml", SKY.resolve("skypilot-org/v8/daytona/vms.csv").toString());
    m.put("verda.yaml", SKY.resolve("skypilot-org/v8/verda/vms.csv").toString());
    m.put("runpod.yaml", "../shared/data/runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json");
    m.put("aws.yaml", awsFile.toString());
    m.put("aws-ec2info.yaml", "../shared/data/aws/ec2instances-info/opszero-instances.gpu.non-eu.json");
    m.put("aws-china.yaml", "../shared/data/aws/ec2instances-info/china-regions/tsaol-gpu_instances_raw_cn.2026-01-21.json");
    m.put("aws-spot.yaml", "../shared/data/aws/spot-js/netflix-asgard-mock-spot.2012-12-11.js");
    m.put("gcp-machines.yaml", "../shared/data/gcp/cyclenerd-pricing-yml/pricing.gpu-instances.2026-07-30.yml");
    m.put("gcp-catalog.yaml", "../shared/data/gcp/cloud-billing-catalog/jumbo2020-gcp_gpu_skus.skuId-0-D.json");
    m.put("oci-list.yaml", "../shared/data/oci/price-list-api/opencost-prices_usd.json");
    m.put("crusoe.yaml", "../shared/data/market-observations/cherielilili-observations.2026-02-11_2026-05-31.csv");
    m.put("guide-reference.yaml", null);
    return m;
  }

  /**
   * Whether the innermost frame outside the JDK is gpurent code or a parser it called: a loop that
   * is merely starved of CPU on a busy machine is caught inside Vert.x or Netty instead, or inside
   * the JVM itself, linking a lambda or defining a class the first time a call site runs (one-time
   * work that only crosses 100 ms when every core is busy parsing the other vendors' payloads).
   */
  static boolean blockedInOurCode(StackTraceElement[] stack) {
    if (stack.length > 0 && (stack[0].getClassName().startsWith("java.lang.invoke.")
        || stack[0].getClassName().equals("java.lang.ClassLoader"))) {
      return false;
    }
    for (StackTraceElement f : stack) {
      String c = f.getClassName();
      if (c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("sun.")) continue;
      return c.startsWith("dev.gpurent.") || c.startsWith("com.fasterxml.") || c.startsWith("org.yaml.")
          || c.startsWith("com.sun.org.apache.");
    }
    return false;
  }

  @Test
  void no_adapter_blocks_the_event_loop(@TempDir Path tmp) throws Exception {
    Path aws = tmp.resolve("index.json");
    AwsPriceListFormatTest.generate(aws, 20_000);
    Vertx vertx = Vertx.vertx(new VertxOptions()
        .setMaxEventLoopExecuteTime(100).setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
        .setBlockedThreadCheckInterval(20).setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS));
    List<String> blocked = new CopyOnWriteArrayList<>();
    ((VertxInternal) vertx).blockedThreadChecker().setThreadBlockedHandler(e -> {
      if (!e.thread().getName().startsWith("vert.x-eventloop")) return;
      StackTraceElement[] stack = e.thread().getStackTrace();
      if (!blockedInOurCode(stack)) return;
      StringBuilder where = new StringBuilder(e.toString());
      for (StackTraceElement f : stack) where.append("\n    at ").append(f);
      blocked.add(where.toString());
    });
    try {
      AdapterRegistry registry = AdapterRegistry.load();
      List<Future<VendorQuotes>> fetches = new ArrayList<>();
      Map<String, String> samples = samples(aws);
      for (Map.Entry<String, String> s : samples.entrySet()) {
        VendorDefinition d = VendorDefinition.load(Path.of("adapters", s.getKey()));
        if (s.getValue() != null) d = VendorDefinition.from(d.config().copy().put("source", s.getValue()), d.where());
        // Adapters are made once, when the pipeline starts; what must never block is each fetch,
        // started on an event loop as the QuoteVerticle starts it.
        VendorAdapter adapter = registry.factory(d.kind()).create(vertx, d, Fixtures.CATALOG);
        fetches.add(Future.<VendorQuotes>future(p -> vertx.runOnContext(v -> adapter.fetch().onComplete(p))));
      }
      Future.join(fetches).toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
      for (int i = 0; i < fetches.size(); i++) {
        assertTrue(fetches.get(i).succeeded(), List.copyOf(samples.keySet()).get(i) + ": " + fetches.get(i).cause());
      }
      assertEquals(500, fetches.get(List.copyOf(samples.keySet()).indexOf("aws.yaml")).result().quotes().size(),
          "one AWS GPU instance in 40");
      assertEquals(List.of(), blocked);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
