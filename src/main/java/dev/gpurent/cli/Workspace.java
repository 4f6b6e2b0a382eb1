package dev.gpurent.cli;

import dev.gpurent.adapter.AdapterRegistry;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.adapter.VendorDirectory;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the one-shot commands work on: the GPU catalog, the vendor definitions, FX rates, and a
 * quote book fetched once from every vendor.
 */
final class Workspace implements AutoCloseable {

  final Path root;
  final GpuCatalog catalog;
  final Map<String, Object> config;
  private Vertx vertx;

  Workspace(Path root) {
    this.root = root;
    Object cfg = YamlFiles.load(root.resolve("config/gpurent.yaml"));
    @SuppressWarnings("unchecked") Map<String, Object> c = cfg instanceof Map<?, ?> ? (Map<String, Object>) cfg : Map.of();
    this.config = c;
    this.catalog = GpuCatalog.load(root.resolve(String.valueOf(config.getOrDefault("catalog", "config/gpus.yaml"))));
  }

  FxRates fallbackFx() {
    Object fx = config.get("fx");
    if (fx instanceof Map<?, ?> m && m.get("fallback") instanceof Map<?, ?> table) {
      @SuppressWarnings("unchecked") Map<String, Object> t = (Map<String, Object>) table;
      return FxRates.fallback(t);
    }
    return FxRates.none("USD");
  }

  /** Fetches every enabled vendor once; a vendor that fails is reported on stderr and left out. */
  QuoteBook fetchQuotes(Path adaptersDir, List<String> failures) throws Exception {
    AdapterRegistry registry = AdapterRegistry.load();
    Path dir = adaptersDir != null ? adaptersDir : root.resolve(String.valueOf(config.getOrDefault("adapters", "adapters")));
    List<VendorDefinition> defs = VendorDirectory.load(dir, registry);
    vertx = Vertx.vertx();
    List<Future<VendorQuotes>> fetches = new ArrayList<>();
    for (VendorDefinition d : defs) {
      fetches.add(registry.factory(d.kind()).create(vertx, d, catalog).fetch()
          .recover(e -> {
            synchronized (failures) {
              failures.add(d.vendor() + ": " + e.getMessage());
            }
            return Future.succeededFuture(null);
          }));
    }
    Future.join(fetches).toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
    List<VendorQuotes> ok = fetches.stream().map(Future::result).filter(q -> q != null).toList();
    return QuoteBook.of(ok, fallbackFx(), Instant.now());
  }

  @Override
  public void close() throws Exception {
    if (vertx != null) vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
