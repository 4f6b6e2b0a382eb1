package dev.gpurent.cli;

import dev.gpurent.adapter.MarketObservationsFormat;
import dev.gpurent.adapter.MarketObservationsFormat.Observation;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.store.SnapshotStore;
import dev.gpurent.store.StoreSettings;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code import-history FILE}: a market observations CSV (see {@link MarketObservationsFormat})
 * as dated price history, so a new install has months of trends: one snapshot per date (slot
 * {@code market-<date>}, taken at 00:00 UTC that day), one quote per provider, GPU, count, region
 * and rental type at the day's median for the whole bundle, USD per hour. Idempotent: dates
 * already imported are skipped.
 */
@Command(name = "import-history", mixinStandardHelpOptions = true,
    description = {"Loads a market observations CSV as dated price history: one snapshot per date (slot market-<date>).",
        "Dates already imported are skipped. Exit status: 0 done, 1 the store failed, 2 bad input."})
public final class ImportHistoryCommand implements Callable<Integer> {

  static final String SLOT_PREFIX = "market-";

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "observations CSV (date,provider,gpu_model,gpu_count,region,rental_type,...)")
  Path file;
  @Option(names = "--store", paramLabel = "FILE|URL", description = "SQLite file or jdbc:postgresql: URL (default: store.path or store.url in config)") String store;
  @Option(names = "--every", paramLabel = "N", defaultValue = "10", description = "report progress every N dates (default ${DEFAULT-VALUE})") int every;
  @Mixin SharedOptions.Root root;

  /** One day of the file as a quote book, with the rows that repeated an offer. */
  record Day(LocalDate date, QuoteBook book, int duplicates) {}

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (every < 1) throw new IllegalArgumentException("--every: at least 1 date, was " + every);
    if (!Files.isRegularFile(file)) throw new IllegalArgumentException("FILE: no such file: " + file);
    try (Workspace ws = root.workspace()) {
      StoreSettings settings = StoreSettings.from(new JsonObject(ws.config), System.getenv()).withTarget(store).resolvedAgainst(root.dir);
      MarketObservationsFormat.Parsed parsed = MarketObservationsFormat.readAll(file, ws.catalog, MarketObservationsFormat.PER_GPU_FROM);
      List<Day> days = days(parsed.observations(), file.getFileName().toString());
      err.println("gpurent: import-history: " + file + ": " + parsed.dataRows() + " rows, " + parsed.observations().size() + " read, "
          + parsed.rejected().size() + " rejected, " + days.size() + " dates");
      Vertx vertx = Vertx.vertx();
      SnapshotStore db = null;
      int written = 0, skipped = 0, duplicates = 0;
      long quotes = 0;
      try {
        db = SnapshotCommand.await(SnapshotStore.open(vertx, settings));
        for (int i = 0; i < days.size(); i++) {
          Day d = days.get(i);
          String slot = SLOT_PREFIX + d.date();
          if (SnapshotCommand.await(db.bySlot(slot)).isPresent()) {
            skipped++;
          } else {
            SnapshotStore.WriteResult w = SnapshotCommand.await(db.write(slot, d.book(), d.date().atStartOfDay(ZoneOffset.UTC).toInstant()));
            if (w.created()) {
              written++;
              quotes += w.quotes();
              duplicates += d.duplicates();
            } else {
              skipped++;
            }
          }
          if ((i + 1) % every == 0 || i + 1 == days.size()) {
            err.println("gpurent: import-history: " + (i + 1) + " of " + days.size() + " dates (to " + d.date() + "): " + written
                + " written, " + skipped + " already there");
          }
        }
      } catch (Exception e) {
        err.println("gpurent: import-history: " + settings.describe() + ": " + SnapshotCommand.message(e));
        return 1;
      } finally {
        if (db != null) db.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
      out.println("imported " + file + " into " + settings.describe() + ": " + days.size() + " dates"
          + (days.isEmpty() ? "" : " (" + days.get(0).date() + " to " + days.get(days.size() - 1).date() + ")") + "; "
          + written + " snapshots written (" + quotes + " quotes), " + skipped + " dates already imported; "
          + parsed.rejected().size() + " rows rejected" + (duplicates == 0 ? "" : ", " + duplicates + " repeated offers dropped"));
      if (!parsed.rejected().isEmpty()) err.println("gpurent: import-history: first rejected row: " + parsed.rejected().get(0));
      return 0;
    }
  }

  /** A provider's vendor id: lower case, every run of other characters a dash ("massed compute" -> "massed-compute"). */
  static String vendorId(String provider) {
    String s = provider.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    return s.isEmpty() ? "unknown" : s;
  }

  /** The observations as one book per date, oldest first. */
  static List<Day> days(List<Observation> observations, String cite) {
    Map<LocalDate, List<Observation>> byDate = new TreeMap<>();
    for (Observation o : observations) byDate.computeIfAbsent(o.date(), d -> new ArrayList<>()).add(o);
    List<Day> out = new ArrayList<>();
    for (Map.Entry<LocalDate, List<Observation>> e : byDate.entrySet()) {
      Instant at = e.getKey().atStartOfDay(ZoneOffset.UTC).toInstant();
      Map<String, List<Quote>> quotes = new LinkedHashMap<>();
      Map<String, String> names = new LinkedHashMap<>();
      Map<String, List<String>> repeated = new LinkedHashMap<>();
      Set<String> keys = new HashSet<>();
      int duplicates = 0;
      for (Observation o : e.getValue()) {
        String vendor = vendorId(o.provider());
        names.putIfAbsent(vendor, o.provider());
        String region = o.region().equalsIgnoreCase("global") || o.region().equalsIgnoreCase("any") ? "" : o.region();
        String offer = o.gpuModel() + " x" + o.gpuCount();
        Quote q = new Quote(vendor, region, offer, o.gpuId(), o.gpuCount(), 0, 0, o.billing(), new Money(o.medianForBundle(), "USD"),
            PriceUnit.HOUR, at, MarketObservationsFormat.KIND + ":" + (o.sourceUrl().isEmpty() ? cite : o.sourceUrl()));
        if (!keys.add(q.key())) {
          duplicates++;
          repeated.computeIfAbsent(vendor, v -> new ArrayList<>()).add("line " + o.line() + " (" + o.date() + " " + offer + " "
              + o.region() + "): a second " + o.billing() + " row for the same offer and region ignored");
          continue;
        }
        quotes.computeIfAbsent(vendor, v -> new ArrayList<>()).add(q);
      }
      List<VendorQuotes> vendors = new ArrayList<>();
      quotes.forEach((vendor, list) -> vendors.add(new VendorQuotes(vendor, names.get(vendor), null, list,
          repeated.getOrDefault(vendor, List.of()), at, "market observation: the day's median over the offers listed (" + cite + ")")));
      out.add(new Day(e.getKey(), QuoteBook.of(vendors, FxRates.none("USD"), at), duplicates));
    }
    return out;
  }
}
