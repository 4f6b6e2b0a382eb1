package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.store.SnapshotDiff;
import dev.gpurent.store.SnapshotMeta;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The feed over more than one day, and a provider read from two of its files. Only one day is
 * recorded (2026-03-22); the second day here is BUILT BY THE TEST from the recorded rows: the same
 * rows dated 2026-03-23 with one price changed, so that what moved is known.
 */
class OpenComputePricesHistoryTest {

  static final Path DAY = OpenComputePricesFormatTest.DAY;
  static GpuCatalog catalog;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
  }

  /** The recorded e2e.csv as the next day's file: dates moved a day, the B200's 4.9 an hour made 5.2. */
  static String nextDay(String recorded) {
    return recorded.replace("2026-03-22,2026-03-22T23:57:08Z", "2026-03-23,2026-03-23T23:57:08Z")
        .replace(",on_demand,,4.9,4.9,", ",on_demand,,5.2,5.2,");
  }

  static VendorQuotes e2e(Path file) {
    return OpenComputePricesFormat.parse(Payload.of(file), OpenComputePricesFormatTest.def("e2e"), catalog,
        Instant.parse("2026-03-24T08:00:00Z")).vendorQuotes();
  }

  @Test
  void aLaterDaysFileIsReadAndTheSnapshotDiffShowsWhatMoved(@TempDir Path dir) throws IOException {
    String recorded = Files.readString(DAY.resolve("e2e.csv"), StandardCharsets.UTF_8);
    Path day2 = Files.createDirectories(dir.resolve("2026-03-23")).resolve("e2e.csv");
    Files.writeString(day2, nextDay(recorded), StandardCharsets.UTF_8);
    VendorQuotes before = e2e(DAY.resolve("e2e.csv")), after = e2e(day2);
    assertEquals(21, after.quotes().size());
    assertEquals(Instant.parse("2026-03-23T23:57:08Z"), after.quotes().get(0).priceDate());
    SnapshotMeta m1 = new SnapshotMeta(1, "2026-03-22", SnapshotMeta.SCHEDULED, Instant.parse("2026-03-23T00:00:00Z"), 21,
        new JsonObject(), new JsonArray());
    SnapshotMeta m2 = new SnapshotMeta(2, "2026-03-23", SnapshotMeta.SCHEDULED, Instant.parse("2026-03-24T00:00:00Z"), 21,
        new JsonObject(), new JsonArray());
    SnapshotDiff diff = SnapshotDiff.of(m2, after.quotes(), m1, before.quotes());
    // one offer moved: the B200 on demand, 4.9 -> 5.2 = +0.3, +6.12% (0.3 / 4.9 = 0.06122); its monthly and
    // annual prices (raw_extra) did not, nor the 6 other cards' 18 quotes
    assertEquals(1, diff.changed().size());
    SnapshotDiff.Change c = diff.changed().get(0);
    assertEquals("e2e||NVIDIA B200|on-demand", c.after().key());
    assertEquals(new BigDecimal("0.3"), c.delta());
    assertEquals(new BigDecimal("6.12"), c.percent());
    assertEquals(20, diff.unchanged());
    assertEquals(List.of(), diff.added());
    assertEquals(List.of(), diff.removed());
  }

  @Test
  void aFileHoldingTwoDaysIsReadAtItsLatestDay(@TempDir Path dir) throws IOException {
    // the collector appends each run to the same file: the recorded rows (lines 2-8 after the header), then the built
    // day's (from line 9)
    String recorded = Files.readString(DAY.resolve("e2e.csv"), StandardCharsets.UTF_8);
    String rows = nextDay(recorded).substring(nextDay(recorded).indexOf('\n') + 1);
    Path both = dir.resolve("e2e.csv");
    Files.writeString(both, recorded + rows, StandardCharsets.UTF_8);
    var r = OpenComputePricesFormat.parse(Payload.of(both), OpenComputePricesFormatTest.def("e2e"), catalog, Instant.parse("2026-03-24T08:00:00Z"));
    assertEquals(LocalDate.of(2026, 3, 23), r.day());
    assertEquals(7, r.providerRows());
    Quote b200 = r.quotes().stream().filter(q -> q.offerId().equals("NVIDIA B200") && q.billing() == Billing.ON_DEMAND).findFirst().orElseThrow();
    assertEquals(new BigDecimal("5.2"), b200.price().amount());
    assertTrue(b200.source().endsWith("e2e.csv line 9"), b200.source());
    assertTrue(r.rejected().get(0).startsWith("skipped 7 rows: an earlier day's row"), r.rejected().get(0));
  }

  @Test
  void aDisagreementBetweenTwoFilesOfTheFeedIsReported(@TempDir Path dir) throws IOException {
    VendorDefinition own = OpenComputePricesFormatTest.def("thundercompute");
    VendorDefinition listing = OpenComputePricesFactory.crossCheck(own, own.config().getJsonObject("crossCheck"));
    VendorQuotes mine = OpenComputePricesFormatTest.read("thundercompute.csv", own).vendorQuotes();
    // recorded: getdeploying's "Thunder Compute Sponsored" 1x A100 80GB at 0.78, the own file's A100 80GB at 0.78: agree
    List<Quote> recorded = OpenComputePricesFormatTest.read("getdeploying.csv", listing).quotes();
    assertEquals(mine.rejected(), FeedCrossCheck.judge(mine, recorded, "getdeploying.csv", 0.10).rejected());
    // the same file with that row's price changed BY THE TEST to 0.98: 0.2 / 0.78 = 25.6% apart, beyond 10%
    String text = Files.readString(DAY.resolve("getdeploying.csv"), StandardCharsets.UTF_8)
        .replace("1x A100 1x A100 80GB (Prototyping),,A100,,80.0,1,,4,32,,,,,,,on_demand,,0.78,0.78,",
            "1x A100 1x A100 80GB (Prototyping),,A100,,80.0,1,,4,32,,,,,,,on_demand,,0.98,0.98,");
    Path edited = dir.resolve("getdeploying.csv");
    Files.writeString(edited, text, StandardCharsets.UTF_8);
    List<Quote> moved = OpenComputePricesFormat.parse(Payload.of(edited), listing, catalog, Instant.parse("2026-03-24T08:00:00Z")).quotes();
    List<String> report = FeedCrossCheck.judge(mine, moved, "getdeploying.csv", 0.10).rejected();
    assertEquals(List.of("cross-check getdeploying.csv (1x A100 1x A100 80GB (Prototyping), a100-80g-sxm x1 on-demand): 0.98/h there "
        + "against 0.78/h here (NVIDIA A100 80GB On-demand), 26% apart, beyond the tolerance of 10%: this vendor's own file is kept"), report);
  }
}
