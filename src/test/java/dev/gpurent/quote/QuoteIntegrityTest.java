package dev.gpurent.quote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.adapter.Payload;
import dev.gpurent.adapter.SkyPilotCatalogFormat;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.catalog.Gpu;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The checks a payload passes before it replaces a vendor's quotes, on real recorded payloads. */
class QuoteIntegrityTest {

  static final Set<String> KNOWN = Fixtures.CATALOG.all().stream().map(Gpu::id).collect(Collectors.toSet());

  /** GCP's recorded GPU-only rows, kept (gcp.yaml rejects them): a real feed with a few spot prices above on-demand. */
  static VendorQuotes gcpGpuOnly() {
    VendorDefinition shipped = VendorDefinition.load(Path.of("adapters/gcp.yaml"));
    VendorDefinition d = VendorDefinition.from(shipped.config().copy().put("gpuOnlyRows", "keep"), shipped.where());
    return SkyPilotCatalogFormat.parse(Payload.of(Path.of("../shared/data/skypilot-catalog-format/anycloud-sh/gcp/vms.gpu.csv")), d,
        Fixtures.CATALOG, Fixtures.AT).vendorQuotes();
  }

  @Test
  void drops_the_few_real_spot_prices_above_on_demand_and_keeps_the_rest() {
    VendorQuotes gcp = gcpGpuOnly();
    QuoteIntegrity.Verdict v = QuoteIntegrity.check(gcp, KNOWN, null);
    assertTrue(v.refusal().isEmpty(), v.refusal().toString());
    List<String> dropped = v.accepted().rejected().stream().filter(r -> r.endsWith("dropped")).toList();
    assertTrue(dropped.contains("A100-80GB x1 (GPU only, host VM extra) in europe-west4: spot 2.1626 USD is above on-demand 2.03285 USD, dropped"),
        dropped.toString());
    assertEquals(gcp.quotes().size() - dropped.size(), v.accepted().quotes().size());
  }

  @Test
  void refuses_a_payload_whose_spot_prices_are_mostly_above_on_demand() {
    VendorQuotes gcp = gcpGpuOnly();
    // the spot and on-demand columns swapped, as a broken feed would send them
    List<Quote> swapped = gcp.quotes().stream().map(q -> q.billing() == Billing.SPOT
        ? new Quote(q.vendor(), q.region(), q.offerId(), q.gpuId(), q.gpuCount(), q.vcpus(), q.ramGiB(), q.billing(),
            q.price().times(java.math.BigDecimal.TEN), q.unit(), q.observedAt(), q.source()) : q).toList();
    VendorQuotes bad = new VendorQuotes(gcp.vendor(), gcp.displayName(), gcp.terms(), swapped, List.of(), gcp.fetchedAt(), "");
    QuoteIntegrity.Verdict v = QuoteIntegrity.check(bad, KNOWN, null);
    assertTrue(v.refusal().orElseThrow().contains("spot prices are above on-demand"), v.refusal().toString());
  }

  @Test
  void refuses_a_payload_that_lost_more_than_half_its_offers() {
    VendorQuotes gcp = QuoteIntegrity.check(gcpGpuOnly(), KNOWN, null).accepted();
    VendorQuotes shrunk = new VendorQuotes(gcp.vendor(), gcp.displayName(), gcp.terms(),
        gcp.quotes().subList(0, gcp.quotes().size() / 3), List.of(), gcp.fetchedAt(), "");
    assertTrue(QuoteIntegrity.check(shrunk, KNOWN, gcp).refusal().orElseThrow()
        .endsWith("refusing to drop more than half of a vendor's offers at once"));
  }
}
