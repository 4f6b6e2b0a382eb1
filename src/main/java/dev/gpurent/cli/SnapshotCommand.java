package dev.gpurent.cli;

import dev.gpurent.quote.QuoteBook;
import dev.gpurent.store.RetentionReport;
import dev.gpurent.store.SnapshotMeta;
import dev.gpurent.store.SnapshotStore;
import dev.gpurent.store.StoreSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code snapshot}: one fetch of every vendor, stored as one dated snapshot, for a cron job. The
 * exit status is one a cron job can trust: 0 written (or the slot already had its snapshot),
 * 1 no vendor produced quotes or the store failed, 2 bad input.
 */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
    description = {"Fetches every vendor once and stores all quotes as one dated snapshot (price history).",
        "Exit status: 0 written, or the slot already had one; 1 no vendor produced quotes, or the store failed; 2 bad input."})
public final class SnapshotCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--slot", paramLabel = "SLOT", description = "the snapshot's slot, e.g. the date a nightly cron job runs for (default manual-<now>); "
      + "a slot already stored is not written again") String slot;
  @Option(names = "--store", paramLabel = "FILE|URL", description = "SQLite file or jdbc:postgresql: URL (default: store.path or store.url in config)") String store;
  @Option(names = "--no-retention", description = "do not apply store.retention after writing") boolean noRetention;
  @Mixin SharedOptions.Fetch fetch;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (slot != null) SnapshotMeta.checkSlot(slot);
    try (Workspace ws = fetch.workspace()) {
      StoreSettings settings = StoreSettings.from(new JsonObject(ws.config), System.getenv()).withTarget(store).resolvedAgainst(fetch.root.dir);
      QuoteBook book = fetch.quoteBook(ws, err);
      if (book.quoteCount() == 0) {
        err.println("gpurent: snapshot: no vendor produced quotes; nothing written");
        return 1;
      }
      Instant now = Instant.now();
      String s = slot != null ? slot : "manual-" + now;
      Vertx vertx = Vertx.vertx();
      SnapshotStore db = null;
      try {
        db = await(SnapshotStore.open(vertx, settings));
        SnapshotStore.WriteResult w = await(db.write(s, book, now));
        if (!w.created()) {
          out.println("slot " + s + " already has snapshot " + w.id() + " (" + w.quotes() + " quotes) in " + db.describe()
              + "; nothing written");
          return 0;
        }
        out.println("snapshot " + w.id() + " (slot " + s + "): " + w.quotes() + " quotes written to " + db.describe());
        book.vendors().forEach((id, e) -> out.println(String.format("  %-20s %7d quotes  %s", id, e.quotes().quotes().size(),
            e.freshness())));
        book.unavailable().forEach((id, why) -> out.println(String.format("  %-20s %7d quotes  unavailable: %s", id, 0, why)));
        if (!noRetention) {
          RetentionReport r = await(db.retain(settings.retention(), Instant.now()));
          out.println("retention: deleted " + r.deleted() + " of " + r.examined() + " snapshots (" + r.deletedQuotes() + " quotes)");
        }
        return 0;
      } catch (Exception e) {
        err.println("gpurent: snapshot: " + settings.describe() + ": " + message(e));
        return 1;
      } finally {
        if (db != null) db.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
    }
  }

  static <T> T await(Future<T> f) throws Exception {
    try {
      return f.toCompletionStage().toCompletableFuture().get(1, TimeUnit.HOURS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception x ? x : e;
    }
  }

  static String message(Throwable e) {
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }
}
