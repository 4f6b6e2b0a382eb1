package dev.gpurent.cli;

import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.LiveRanking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.service.live.LiveRankingUpdate;
import dev.gpurent.service.live.RankingParts;
import dev.gpurent.text.Lang;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What one live scenario holds, per workload and vendor: the figure behind the ranking budget's
 * weight ({@code RankingBudget.LIVE_BYTES_PER_CELL}). On the recorded sample root (bench.root), N
 * live scenarios of W inference workloads each, every one unlike the others (no scan shared), are
 * ranked and their update made as the RankingVerticle makes it; the heap after GC before and after,
 * over N x W x vendors. With bench.render=true each update's message is also rendered in English
 * and its REST body kept, as a fetched scenario's is. Run by {@code bench/footprint.sh}.
 */
public final class LiveFootprint {

  public static void main(String[] args) throws Exception {
    Path root = Path.of(System.getProperty("bench.root"));
    boolean render = Boolean.getBoolean("bench.render");
    QuoteBook book;
    CostModel model;
    ScenarioReader reader;
    try (Workspace ws = new Workspace(root)) {
      book = ws.quoteBook(null, true, false, new PrintWriter(new StringWriter()));
      model = new CostModel(ws.catalog, ws.rules);
      reader = new ScenarioReader(ws.catalog);
    }
    int vendors = book.vendors().size();
    System.out.println("# " + vendors + " vendors in the book; heap per live scenario after GC" + (render ? ", each rendered once in English" : ""));
    for (int workloads : new int[] {1, 10, 50}) {
      int n = workloads == 1 ? 400 : workloads == 10 ? 60 : 16;
      List<Object> kept = new ArrayList<>();
      double before = heapAfterGc();
      for (int k = 0; k < n; k++) {
        Scenario s = reader.read(dev.gpurent.config.PlainValues.of(scenario(workloads, k)));
        LiveRanking live = LiveRanking.of(model, s, book);
        RankingParts parts = new RankingParts();
        LiveRankingUpdate update = parts.take("s" + k, live.ranking(), false);
        kept.add(live);
        kept.add(parts);
        kept.add(update);
        if (render) kept.add(update.ranking(Lang.EN));
      }
      double after = heapAfterGc();
      double perScenario = (after - before) / n;
      System.out.printf("%2d workloads: %,.0f bytes a scenario, %,.0f bytes a workload and vendor (%d scenarios)%n", workloads,
          perScenario, perScenario / workloads / vendors, n);
      kept.clear();
    }
  }

  /** W inference workloads, the k-th scenario's own (its peak load), so that no scan is shared. */
  static JsonObject scenario(int workloads, int k) {
    JsonArray w = new JsonArray();
    for (int i = 0; i < workloads; i++) {
      w.add(new JsonObject().put("kind", "inference").put("paramsBillions", 1 + i).put("peakQps", 1 + i + k / 1000.0)
          .put("secondsPerRequest", 2).put("concurrentPerCard", 4));
    }
    return new JsonObject().put("name", "footprint " + k).put("currency", "USD").put("storedGb", 100 + k).put("workloads", w);
  }

  static double heapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
