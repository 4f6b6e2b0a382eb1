package dev.gpurent.bench;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.QuoteBook;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * {@link RankingBench}'s ranking timed by the ranking thread's own CPU time rather than the wall
 * clock, and its allocation counted: on a machine shared with other builds, a wall-clock mean
 * counts the time the thread waited for a core; CPU time much less so (caches and the other
 * hyperthread still weigh). 8 s of warm-up per size, then 15 batches of about 2 s of work.
 * Arguments: offer counts (multiples of 2,400); default 2400 120000.
 */
public final class RankingCpu {

  private RankingCpu() {}

  public static void main(String[] args) {
    GpuCatalog catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
    CostModel model = new CostModel(catalog);
    Scenario s = new ScenarioReader(catalog).read(YamlFiles.load(Path.of("config/scenarios/guide-template-open.yaml")));
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    for (String arg : args.length == 0 ? new String[] {"2400", "120000"} : args) {
      int offers = Integer.parseInt(arg);
      QuoteBook book = SyntheticBook.build(catalog, 20, 30, offers / 2400);
      int per = Math.max(5, 2_000_000 / offers);
      int kept = 0;
      long warm = System.nanoTime() + 8_000_000_000L;
      while (System.nanoTime() < warm) kept += rank(model, s, book, per);
      double[] us = new double[15];
      long allocated = mx.getThreadAllocatedBytes(thread);
      for (int b = 0; b < us.length; b++) {
        long cpu = mx.getCurrentThreadCpuTime();
        kept += rank(model, s, book, per);
        us[b] = (mx.getCurrentThreadCpuTime() - cpu) / 1e3 / per;
      }
      allocated = (mx.getThreadAllocatedBytes(thread) - allocated) / ((long) per * us.length);
      Arrays.sort(us);
      System.out.printf("%,d offers: CPU %.1f us a ranking median (min %.1f, max %.1f over %d batches of %d), %,d bytes allocated a ranking (%d)%n",
          offers, us[us.length / 2], us[0], us[us.length - 1], us.length, per, allocated, kept % 10);
    }
  }

  /** Ranks {@code n} times; returns the plans of the last ranking, so that none is optimized away. */
  private static int rank(CostModel model, Scenario s, QuoteBook book, int n) {
    Ranking r = null;
    for (int i = 0; i < n; i++) r = model.rank(s, book);
    return r.plans().size();
  }
}
