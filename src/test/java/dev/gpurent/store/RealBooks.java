package dev.gpurent.store;

import dev.gpurent.Fixtures;
import dev.gpurent.adapter.EcbFxAdapter;
import dev.gpurent.adapter.Payload;
import dev.gpurent.adapter.RunPodFormat;
import dev.gpurent.adapter.SkyPilotCatalogFormat;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** Quote books built from the real recorded payloads: RunPod's gpuTypes file and SkyPilot's Lambda catalog. */
public final class RealBooks {

  static final Path RUNPOD = Path.of("../shared/data/runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json");
  static final Path LAMBDA = Path.of("../shared/data/skypilot-catalog-format/anycloud-sh/lambda/vms.gpu.csv");
  static final Path ECB = Path.of("../shared/data/ecb/eurofxref-daily.2025-05-09.xml");
  static final Instant AT = Instant.parse("2025-06-21T23:18:00Z");

  public static final VendorQuotes RUNPOD_QUOTES = runpod();
  public static final VendorQuotes LAMBDA_QUOTES = lambda();
  public static final FxRates FX = fx();

  private RealBooks() {}

  private static VendorDefinition def(String yaml, Path source) {
    VendorDefinition d = VendorDefinition.load(Path.of("adapters", yaml));
    return VendorDefinition.from(d.config().copy().put("source", source.toString()), d.where());
  }

  private static VendorQuotes runpod() {
    return RunPodFormat.parse(Payload.of(RUNPOD), def("runpod.yaml", RUNPOD), Fixtures.CATALOG, AT);
  }

  private static VendorQuotes lambda() {
    return SkyPilotCatalogFormat.parse(Payload.of(LAMBDA), def("lambda.yaml", LAMBDA), Fixtures.CATALOG, AT).vendorQuotes();
  }

  private static FxRates fx() {
    try (InputStream in = Files.newInputStream(ECB)) {
      return EcbFxAdapter.parse(in, ECB.toString()).latest();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Both vendors, Lambda stale by 40 minutes, and "vast" unavailable. */
  public static QuoteBook book(Instant builtAt) {
    return book(builtAt, RUNPOD_QUOTES, LAMBDA_QUOTES);
  }

  public static QuoteBook book(Instant builtAt, VendorQuotes runpod, VendorQuotes lambda) {
    Map<String, QuoteBook.Entry> m = new LinkedHashMap<>();
    m.put(runpod.vendor(), new QuoteBook.Entry(runpod, Freshness.fresh()));
    m.put(lambda.vendor(), new QuoteBook.Entry(lambda, new Freshness(Freshness.State.STALE, Duration.ofMinutes(40))));
    return new QuoteBook(m, Map.of("vast", "offline, and no quotes were saved from an earlier fetch"), FX, builtAt);
  }

  static int quoteCount() {
    return RUNPOD_QUOTES.quotes().size() + LAMBDA_QUOTES.quotes().size();
  }

  /** The vendor's payload with {@code edit} applied to its quote list. */
  public static VendorQuotes edited(VendorQuotes v, UnaryOperator<List<Quote>> edit) {
    return new VendorQuotes(v.vendor(), v.displayName(), v.terms(), edit.apply(new ArrayList<>(v.quotes())), v.rejected(),
        v.fetchedAt(), v.note());
  }

  public static Quote repriced(Quote q, String price) {
    return new Quote(q.vendor(), q.region(), q.offerId(), q.gpuId(), q.gpuCount(), q.vcpus(), q.ramGiB(), q.billing(),
        new Money(new BigDecimal(price), q.price().currency()), q.unit(), q.observedAt(), q.source());
  }

  /**
   * A page of table rows (a b-tree leaf: its first byte 0x0D) near three quarters into an SQLite
   * file of 4 KiB pages: damaging it spoils quote rows that only a read of them (or quick_check)
   * touches, never a page the open itself writes (the schema, an index, the free list), whatever
   * the rows' layout this version writes.
   */
  public static int rowPage(byte[] db) {
    int pages = db.length / 4096;
    for (int d = 0; d < pages; d++) {
      for (int p : new int[] {pages * 3 / 4 + d, pages * 3 / 4 - d}) {
        if (p > 1 && p < pages && db[p * 4096] == 0x0D) return p;
      }
    }
    throw new IllegalStateException("no table leaf page in " + pages + " pages");
  }
}
