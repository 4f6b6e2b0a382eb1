package dev.gpurent;

import dev.gpurent.adapter.StaticSheetFactory;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.Regions;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.cost.RankingRules;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/** Shared test inputs: the real catalog, the shipped guide-reference sheet and scenario files. */
public final class Fixtures {

  public static final GpuCatalog CATALOG = GpuCatalog.load(Path.of("config/gpus.yaml"));
  public static final Regions REGIONS = Regions.load(Path.of("config/regions.yaml"));
  public static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");
  /** The shipped configuration's ranking rules: its fallback providers, price age and thin-data limit. */
  @SuppressWarnings("unchecked")
  public static final RankingRules RULES = RankingRules.from((java.util.Map<String, ?>) YamlFiles.load(Path.of("config/gpurent.yaml")));

  private Fixtures() {}

  /** A static vendor sheet read without any I/O beyond the YAML file. */
  public static VendorQuotes sheet(Path yaml) {
    VendorDefinition def = VendorDefinition.load(yaml);
    return new StaticSheetFactory().create(null, def, CATALOG).fetch().result();
  }

  public static VendorQuotes guideReference() {
    return sheet(Path.of("adapters/guide-reference.yaml"));
  }

  /** {@code v} with its storage price marked as a typical figure, as {@code {price: 0.08, typical: true}} in its YAML would. */
  public static VendorQuotes withTypicalStorage(VendorQuotes v) {
    dev.gpurent.quote.VendorTerms t = v.terms();
    dev.gpurent.quote.VendorTerms typical = new dev.gpurent.quote.VendorTerms(t.currency(),
        dev.gpurent.quote.ServicePrice.typical(t.storagePerGbMonth().price(), ""), t.egress(), t.egressTiers(), t.ingressPerGb(),
        t.loadBalancerPerMonth(), t.granularity(), t.discount(), t.source(), t.migrationInPerGb(), t.migrationOutPerGb(),
        t.bandwidthMbps());
    return new VendorQuotes(v.vendor(), v.displayName(), typical, v.quotes(), List.of(), AT, "");
  }

  public static QuoteBook book(VendorQuotes... vendors) {
    return QuoteBook.of(List.of(vendors), FxRates.none("CNY"), AT);
  }

  public static Scenario scenario(String file) {
    return new ScenarioReader(CATALOG).read(YamlFiles.load(Path.of("config/scenarios", file)));
  }
}
