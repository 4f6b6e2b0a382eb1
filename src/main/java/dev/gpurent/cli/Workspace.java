package dev.gpurent.cli;

import dev.gpurent.adapter.AdapterRegistry;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.adapter.VendorDirectory;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.Regions;
import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.service.Addresses;
import dev.gpurent.service.QuoteSettings;
import dev.gpurent.service.quotes.QuoteVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * What the one-shot commands work on: the GPU catalog, the vendor definitions, FX rates, and a
 * quote book fetched once from every vendor.
 */
final class Workspace implements AutoCloseable {

  final Path root;
  final GpuCatalog catalog;
  /** The models of config/models.yaml beside the GPU catalog, with their measured speeds. */
  final dev.gpurent.catalog.ModelCatalog models;
  final Regions regions;
  final Map<String, Object> config;
  final dev.gpurent.cost.RankingRules rules;
  private Vertx vertx;

  Workspace(Path root) {
    this.root = root;
    Object cfg = YamlFiles.load(root.resolve("config/gpurent.yaml"));
    @SuppressWarnings("unchecked") Map<String, Object> c = cfg instanceof Map<?, ?> ? (Map<String, Object>) cfg : Map.of();
    this.config = c;
    ConfigSchema.Section top;
    try {
      top = ConfigSchema.root(c);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("config/gpurent.yaml: " + e.getMessage(), e);
    }
    Path catalogFile = root.resolve(top.text("catalog"));
    this.catalog = GpuCatalog.load(catalogFile);
    this.models = dev.gpurent.catalog.ModelCatalog.besides(catalogFile);
    this.regions = Regions.load(root.resolve(top.text("regions")));
    this.rules = dev.gpurent.cost.RankingRules.from(config);
  }

  /**
   * Runs the quote pipeline once: loads every enabled vendor (offline: only file sources, the rest
   * from their last good quotes, stale), reports each vendor's outcome on {@code progress} (the
   * vendors with no quotes at all on one line unless {@code verbose}), and returns the resulting book.
   */
  QuoteBook quoteBook(Path adaptersDir, boolean offline, boolean verbose, PrintWriter progress) throws Exception {
    AdapterRegistry registry = AdapterRegistry.load();
    List<VendorDefinition> defs = VendorDirectory.load(adaptersDir(adaptersDir), registry);
    JsonObject cfg = new JsonObject(config);
    QuoteSettings settings = QuoteSettings.from(cfg.getJsonObject("quotes")).withOffline(offline);
    if (!settings.cacheDir().isEmpty()) settings = settings.withCacheDir(root.resolve(settings.cacheDir()).toString());
    vertx = Vertx.vertx();
    QuoteVerticle quotes = new QuoteVerticle(defs, catalog, regions, registry, settings, cfg.getJsonObject("fx"), Clock.systemUTC())
        .tokenPrices(this::tokenPrices);
    await(vertx.deployVerticle(quotes));
    JsonObject outcome = await(vertx.eventBus().<JsonObject>request(Addresses.QUOTES_REFRESH, new JsonObject(),
        new DeliveryOptions().setSendTimeout(TimeUnit.HOURS.toMillis(1))).map(m -> m.body()));
    QuoteBook book = await(vertx.eventBus().<QuoteBook>request(Addresses.QUOTES_BOOK, null).map(m -> m.body()));
    List<String> without = new java.util.ArrayList<>();
    for (VendorDefinition d : defs) {
      String id = d.vendor();
      String failure = outcome.getJsonObject("failed").getString(id);
      var entry = book.vendor(id);
      if (entry.isEmpty()) {
        without.add(id);
        continue;
      }
      int n = entry.get().quotes().quotes().size();
      progress.println("gpurent: " + id + ": " + n + (n == 1 ? " quote, " : " quotes, ") + entry.get().freshness()
          + (failure == null ? "" : " (refresh failed: " + failure.strip() + ")"));
    }
    java.util.Collections.sort(without);  // in the order the ranking's "Not ranked" names them
    if (verbose || without.size() == 1) {
      for (String id : without) progress.println("gpurent: " + id + ": unavailable (" + String.valueOf(book.unavailable().get(id)).strip() + ")");
    } else if (!without.isEmpty()) {
      progress.println("gpurent: " + without.size() + " vendors unavailable, no quotes (--verbose for each reason): " + String.join(", ", without));
    }
    progress.println("gpurent: FX " + book.fx().source() + (book.fx().asOf() == null ? "" : " of " + book.fx().asOf()));
    return book;
  }

  /** The per-token prices of the config's {@code tokenPrices.files}, read now. */
  dev.gpurent.quote.TokenPriceBook tokenPrices() {
    return dev.gpurent.tokens.TokenPriceFiles.from(config.get("tokenPrices")).load(root, java.time.Instant.now());
  }

  /** The vendor files' folder: {@code given} (--adapters) when set, else the config's {@code adapters} under the root. */
  Path adaptersDir(Path given) {
    return given != null ? given : root.resolve(ConfigSchema.root(config).text("adapters"));
  }

  /** Every vendor file in the folder, disabled ones too. */
  List<VendorDefinition> allVendors(Path adaptersDir) {
    return VendorDirectory.loadAll(adaptersDir(adaptersDir), AdapterRegistry.load());
  }

  /**
   * Fails (IllegalArgumentException naming {@code option}) when an id is no configured vendor's,
   * checked before anything is fetched: a misspelt vendor would otherwise match nothing and look
   * like a vendor without quotes.
   */
  void checkVendors(String option, Collection<String> ids, Path adaptersDir) {
    Set<String> known = new TreeSet<>();
    allVendors(adaptersDir).forEach(d -> known.add(d.vendor()));
    for (String id : ids) {
      if (!known.contains(id)) {
        throw new IllegalArgumentException(option + ": unknown vendor '" + id + "'; known: " + String.join(", ", known));
      }
    }
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(1, TimeUnit.HOURS);
  }

  @Override
  public void close() throws Exception {
    if (vertx != null) vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
