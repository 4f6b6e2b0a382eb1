package dev.gpurent.store;

import dev.gpurent.quote.Billing;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The process {@link SnapshotCrashTest} kills: writes slots {@code crash-<first>},
 * {@code crash-<first+1>}, ... of {@code rows} quotes each to a SQLite file, saying "writing",
 * "written" and "deleting" as it goes. "loop": for ever, deleting the previous slot after each
 * write so the file stays small, the first slot only a twentieth of the size (so that some kills
 * land on a commit, not only inside a long write); "once": one full slot, then exit 0. It writes
 * through {@link SnapshotStore}'s own API on its Vert.x worker pool, as the service does, so the
 * kills land in the code that runs in production. Built to start fast (it is started once per
 * kill): plain quotes shaped like SkyPilot and RunPod ones, no catalog, no YAML.
 *
 * <p>Arguments: file, first slot number, rows, loop|once.
 */
public final class CrashChild {

  private CrashChild() {}

  static QuoteBook book(int rows, int variant, Instant at) {
    String[] gpus = {"h100-sxm", "a100-80g-sxm", "a100-40g-pcie", "l40s", "rtx-4090", "v100-16g", "a10", "l4"};
    Billing[] modes = {Billing.ON_DEMAND, Billing.SPOT, Billing.MONTHLY, Billing.THREE_MONTHS};
    List<Quote> a = new ArrayList<>(), b = new ArrayList<>();
    for (int k = 0; k < rows; k++) {
      String vendor = k % 2 == 0 ? "lambda" : "runpod";
      String gpu = gpus[k % gpus.length];
      int count = 1 << (k % 4);
      BigDecimal price = BigDecimal.valueOf(100 + (k * 37L + variant) % 4_000, 2).multiply(BigDecimal.valueOf(count));
      Billing mode = modes[(k / 8) % modes.length];
      (k % 2 == 0 ? a : b).add(new Quote(vendor, "europe-central-" + (k / 64), "gpu_" + count + "x_" + gpu + "_" + k, gpu, count,
          8.0 * count, 64.0 * count, mode, new Money(price, "USD"), mode == Billing.MONTHLY ? PriceUnit.MONTH : PriceUnit.HOUR, at,
          "skypilot-catalog:../shared/data/skypilot-catalog-format/anycloud-sh/" + vendor + "/vms.gpu.csv"));
    }
    return QuoteBook.of(List.of(new VendorQuotes("lambda", "Lambda", null, a, List.of(), at, ""),
        new VendorQuotes("runpod", "RunPod", null, b, List.of(), at, "")), FxRates.none("USD"), at);
  }

  public static void main(String[] args) throws Exception {
    Path db = Path.of(args[0]);
    int first = Integer.parseInt(args[1]);
    int rows = Integer.parseInt(args[2]);
    boolean once = args[3].equals("once");
    PrintStream out = System.out;
    Instant at = Instant.now();
    // the big book is built while the store opens and the small first slot is written
    CompletableFuture<QuoteBook> big = CompletableFuture.supplyAsync(() -> book(rows, first, at));
    Vertx vertx = vertx();
    SnapshotStore store = SnapshotStore.open(vertx, StoreSettings.sqlite(db)).await();
    // housekeeping, as a real job's retention would: only the newest crash slot is kept (a small
    // first slot survives each kill that lands in the big write after it; hundreds of kills would pile them up)
    List<SnapshotMeta> crash = store.list(1000, null).await().stream().filter(m -> m.slot().startsWith("crash-")).toList();
    for (SnapshotMeta m : crash.subList(Math.min(1, crash.size()), crash.size())) {
      out.println("deleting " + m.slot());
      out.flush();
      store.delete(m.id()).await();
    }
    QuoteBook small = once ? null : book(rows / 20, first, at);
    out.println("ready");
    out.flush();
    Long previous = null;
    for (int i = first; ; i++) {
      String slot = "crash-" + i;
      QuoteBook book = i == first && !once ? small : big.join();
      out.println("writing " + slot);
      out.flush();
      SnapshotStore.WriteResult w = store.write(slot, book, Instant.now()).await();
      out.println("written " + slot + " " + (w.created() ? "created" : "existing") + " " + w.id() + " " + w.quotes());
      out.flush();
      if (once) break;
      if (previous != null) {
        out.println("deleting crash-" + (i - 1));
        out.flush();
        store.delete(previous).await();
        out.println("deleted crash-" + (i - 1));
        out.flush();
      }
      previous = w.id();
    }
    store.close().await();
    vertx.close().await();
  }

  /**
   * Vert.x for the store's worker pool only: no file cache (a killed JVM would leave its folder
   * behind) and no class-path resolving, so nothing is unpacked and start-up stays short.
   */
  static Vertx vertx() {
    return Vertx.vertx(new VertxOptions().setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false)
        .setClassPathResolvingEnabled(false)));
  }
}
