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
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Messages;
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
    return quoteBook(adaptersDir, offline, verbose, progress, Lang.EN, false);
  }

  /**
   * As above, the progress in {@code lang}; {@code listedInOutput}: the output itself names the vendors
   * with no quotes (the ranking text's "Not ranked"), so progress does not say it a second time.
   */
  QuoteBook quoteBook(Path adaptersDir, boolean offline, boolean verbose, PrintWriter progress, Lang lang, boolean listedInOutput)
      throws Exception {
    Messages say = Messages.of("report", lang);
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
      var f = entry.get().freshness();
      String fresh = Localizer.text(dev.gpurent.cost.Words.freshness(f), lang);
      progress.println(say.text(n == 1 ? "progress.quotes.one" : "progress.quotes.many", "vendor", id, "count", n, "freshness", fresh)
          + (failure == null ? "" : say.text("progress.refreshFailed", "detail", failure.strip())));
    }
    java.util.Collections.sort(without);  // in the order the ranking's "Not ranked" names them
    if (verbose || without.size() == 1) {
      for (String id : without) {
        String reason = String.valueOf(book.unavailable().get(id)).strip();
        progress.println(say.text("progress.unavailable", "vendor", id,
            "reason", lang == Lang.EN ? reason : Localizer.text(dev.gpurent.cost.Words.bookReason(reason), lang)));
      }
    } else if (!without.isEmpty() && !listedInOutput) {
      progress.println(say.text("progress.unavailable.many", "count", without.size(), "vendors", String.join(", ", without)));
    }
    String fx = book.fx().source() + (book.fx().asOf() == null || book.fx().source().contains(book.fx().asOf().toString()) ? ""
        : " " + book.fx().asOf());
    progress.println(say.text("progress.fx", "source", Localizer.fx(fx, lang)));
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
