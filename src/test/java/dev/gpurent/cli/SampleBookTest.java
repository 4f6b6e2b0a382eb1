package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.adapter.Payload;
import dev.gpurent.adapter.RunPodFormat;
import dev.gpurent.adapter.SkyPilotCatalogFormat;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.quote.MarketPlausibility;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample root that README shows, built by {@code bench/sample-root.sh} from every recorded
 * payload in {@code ../shared/data} and fetched once through the real pipeline (QuoteVerticle,
 * integrity checks, market plausibility), as {@code ./gpurent vendors --root} does.
 */
class SampleBookTest {

  @TempDir
  static Path tmp;
  static QuoteBook book;
  static String progress;

  @BeforeAll
  static void fetchTheSampleRoot() throws Exception {
    Path root = tmp.resolve("sample-root");
    Process p = new ProcessBuilder("bash", "bench/sample-root.sh", root.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertEquals(0, p.waitFor(), out);
    StringWriter log = new StringWriter();
    try (Workspace ws = new Workspace(root)) {
      book = ws.quoteBook(null, false, false, new PrintWriter(log, true));
    }
    progress = log.toString();
  }

  static VendorQuotes vendor(String id) {
    return book.vendor(id).orElseThrow(() -> new AssertionError(id + " is not in the book: " + progress)).quotes();
  }

  /** A shipped vendor read straight from its recorded file, before anything judged it. */
  static List<Quote> recorded(String yaml, Path file, boolean runpod) throws Exception {
    VendorDefinition d = VendorDefinition.load(Path.of("adapters", yaml));
    d = VendorDefinition.from(d.config().copy().put("source", file.toString()), d.where());
    return runpod ? RunPodFormat.parse(Payload.of(file), d, Fixtures.CATALOG, Fixtures.AT).quotes()
        : SkyPilotCatalogFormat.parse(Payload.of(file), d, Fixtures.CATALOG, Fixtures.AT).quotes();
  }

  /** What identifies a quote and its price, without the fetch time. */
  static List<String> offers(List<Quote> quotes) {
    return quotes.stream().map(q -> q.key() + "|" + q.gpuId() + "|" + q.gpuCount() + "|" + q.price()).sorted().toList();
  }

  @Test
  void lists_at_least_60_vendors_with_quotes() {
    // real vendors only: a reference price sheet (the guide's, reference: true) is not one to sign with
    Map<String, Integer> withQuotes = book.vendors().entrySet().stream()
        .filter(e -> !e.getValue().quotes().quotes().isEmpty() && !e.getValue().quotes().reference())
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().quotes().quotes().size(), (a, b) -> a, TreeMap::new));
    // 36 from the vendors' own APIs, catalogs and the market observations, 25 from the OpenComputePrices feed (aethir's
    // one quote is refused against the market, so it has none)
    assertEquals(61, withQuotes.size(), withQuotes.size() + " vendors with quotes: " + withQuotes + "\n" + progress);
    assertTrue(vendor("guide-reference").reference() && !vendor("guide-reference").quotes().isEmpty(), "the sheet is there, not counted");
    assertFalse(withQuotes.containsKey("guide-reference"));
    for (String v : List.of("shadeform", "primeintellect", "seeweb", "hyperstack", "jarvislabs", "mithril", "spheron", "daytona", "verda",
        "coreweave", "ovh", "hotaisle", "together", "vultr", "e2e", "denvr", "gmicloud", "massedcompute", "voltagepark", "thundercompute",
        "salad", "exoscale", "flyio", "oblivus", "lyceum", "upcloud", "cerebrium", "hexabyte", "scaleway", "databasemart", "replicate",
        "tensordock", "breezehost", "zenlayer", "beyondpl", "cirrascale", "packetai", "alibaba-cloud")) {
      assertTrue(withQuotes.containsKey(v), v + " has no quotes: " + progress);
    }
  }

  @Test
  void refuses_mithril_placeholders_and_nothing_else_in_the_book() {
    VendorQuotes mithril = vendor("mithril");
    assertEquals(List.of("h100-80gb.sxm.8x", "h200.8x"), mithril.quotes().stream().map(Quote::offerId).toList());
    List<String> refused = book.vendors().values().stream().flatMap(e -> e.quotes().rejected().stream())
        .filter(r -> r.contains(MarketPlausibility.REASON)).toList();
    assertEquals(5, refused.size(), refused.toString());
    assertTrue(refused.stream().allMatch(r -> mithril.rejected().contains(r)), refused.toString());
    assertTrue(refused.stream().anyMatch(r -> r.startsWith("neb-b200.sxm.8x in us-central5-a (spot): implausibly cheap against the market: "
        + "0.08 USD/hour is ")), refused.toString());
    // and nothing real is too dear: the one quote of the sample above 20 times its market median is aethir's lone T4 at
    // 19.0/h in the OpenComputePrices feed (PROVENANCE.md 10a, trap 4), and none is above the absolute ceiling
    assertEquals(List.of("T4 (on-demand): implausibly dear against the market: 19.00 USD/hour is 16.8859 EUR per GPU-hour, 24.8396 times "
        + "the market median for t4 (0.6798, the median of the median per GPU-hour at 7 other vendors; the ceiling is 20 times); refused as "
        + "no price"), book.vendors().values().stream().flatMap(e -> e.quotes().rejected().stream())
        .filter(r -> r.contains(MarketPlausibility.DEAR_REASON) || r.contains(dev.gpurent.quote.PriceCeiling.REASON)).toList());
    assertTrue(vendor("aethir").quotes().isEmpty());
  }

  @Test
  void keeps_every_vast_and_runpod_quote_of_the_sample_data() throws Exception {
    Path data = Path.of("../shared/data");
    List<Quote> vast = recorded("vast.yaml", data.resolve("skypilot-catalog-format/anycloud-sh/vast/vms.gpu.csv"), false);
    List<Quote> runpod = recorded("runpod.yaml", data.resolve("runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json"), true);
    assertEquals(64, vast.size());
    assertEquals(offers(vast), offers(vendor("vast").quotes()));
    assertEquals(offers(runpod), offers(vendor("runpod").quotes()));
    assertTrue(vendor("vast").rejected().stream().noneMatch(r -> r.contains(MarketPlausibility.REASON)));
    assertTrue(vendor("runpod").rejected().stream().noneMatch(r -> r.contains(MarketPlausibility.REASON)));
    // RunPod's cheapest community offers are among them.
    assertTrue(vendor("runpod").quotes().stream().anyMatch(q -> q.offerId().equals("Tesla V100-SXM2-32GB/community")
        && q.billing() == dev.gpurent.quote.Billing.SPOT));
  }
}
