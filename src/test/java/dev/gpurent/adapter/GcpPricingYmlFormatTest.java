package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class GcpPricingYmlFormatTest {

  static final Path SAMPLE = Path.of("../shared/data/gcp/cyclenerd-pricing-yml/pricing.gpu-instances.2026-07-30.yml");
  /** The sample's about.timestamp 1785391997 = its "generated: Thu Jul 30 06:13:17 2026" in UTC. */
  static final Instant GENERATED = Instant.parse("2026-07-30T06:13:17Z");
  static final Instant FETCHED = Instant.parse("2026-08-01T00:00:00Z");

  static GpuCatalog catalog;
  static VendorDefinition def;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
    VendorDefinition shipped = VendorDefinition.load(Path.of("adapters/gcp-machines.yaml"));
    def = VendorDefinition.from(shipped.config().copy().put("source", SAMPLE.toString()), shipped.where());
  }

  static GcpPricingYmlFormat.Result parseSample() {
    return GcpPricingYmlFormat.parse(Payload.of(SAMPLE), def, catalog, FETCHED);
  }

  static Map<Billing, Quote> offer(GcpPricingYmlFormat.Result r, String machine, String region) {
    return r.quotes().stream().filter(q -> q.offerId().equals(machine) && q.region().equals(region))
        .collect(Collectors.toMap(Quote::billing, q -> q));
  }

  static void assertPrice(String usd, PriceUnit unit, Quote q) {
    assertEquals(Money.of(usd, "USD"), q.price(), q.toString());
    assertEquals(unit, q.unit(), q.toString());
  }

  @Test
  void parses_cyclenerd_gpu_machines() {
    GcpPricingYmlFormat.Result r = parseSample();
    assertEquals(29, r.machines());
    assertEquals(29, r.gpuMachines());
    assertEquals(0, r.cpuMachinesSkipped());
    // 984 machine/region entries: 817 with all four prices, 160 (a2-ultragpu) without commitments,
    // 7 (g4 in europe-west10) without month_1y
    assertEquals(3609, r.quotes().size());
    assertEquals(327, r.rejected().size());
    assertEquals(GENERATED, r.generated());
    assertTrue(r.quotes().stream().allMatch(q -> q.vendor().equals("gcp-machines") && q.priceDate().equals(GENERATED)
        && q.observedAt().equals(FETCHED)
        && q.source().equals("gcp-pricing-yml:" + SAMPLE) && q.price().currency().equals("USD")));

    Map<Billing, Quote> a2 = offer(r, "a2-highgpu-1g", "us-central1");
    assertEquals(4, a2.size(), a2.toString());
    assertPrice("3.673385", PriceUnit.HOUR, a2.get(Billing.ON_DEMAND));
    assertPrice("1.92802", PriceUnit.HOUR, a2.get(Billing.SPOT));
    assertPrice("1689.3711392", PriceUnit.MONTH, a2.get(Billing.YEARLY));
    assertPrice("938.56707798", PriceUnit.MONTH, a2.get(Billing.THREE_YEARS));
    Quote od = a2.get(Billing.ON_DEMAND);
    assertEquals("a100-40g-sxm", od.gpuId());
    assertEquals(1.0, od.gpuCount());
    assertEquals(12.0, od.vcpus());
    assertEquals(85.0, od.ramGiB());
  }

  @Test
  void translates_the_format_gpu_keys() {
    GcpPricingYmlFormat.Result r = parseSample();
    Quote ultra = offer(r, "a2-ultragpu-8g", "us-central1").get(Billing.ON_DEMAND);
    assertEquals("a100-80g-sxm", ultra.gpuId());
    assertEquals(8.0, ultra.gpuCount());
    assertPrice("40.5503831232877", PriceUnit.HOUR, ultra);
    Quote mega = offer(r, "a3-megagpu-8g", "asia-northeast1").get(Billing.ON_DEMAND);
    assertEquals("h100-sxm", mega.gpuId());
    assertPrice("119.276366632548", PriceUnit.HOUR, mega);
    assertEquals("h100-sxm", offer(r, "a3-highgpu-8g", "us-central1").get(Billing.ON_DEMAND).gpuId());
    assertEquals("l4", offer(r, "g2-standard-4", "us-central1").get(Billing.ON_DEMAND).gpuId());

    // rtx6000 here is the G4's RTX PRO 6000 Blackwell, not the catalog alias (Quadro RTX 6000);
    // the fractional 1/4 GPU of g4-standard-12 is kept as it is
    Map<Billing, Quote> g4 = offer(r, "g4-standard-12", "us-central1");
    assertEquals("rtx-pro-6000", g4.get(Billing.ON_DEMAND).gpuId());
    assertEquals(0.25, g4.get(Billing.ON_DEMAND).gpuCount());
    assertPrice("1.1249825", PriceUnit.HOUR, g4.get(Billing.ON_DEMAND));
    assertPrice("0.449955", PriceUnit.HOUR, g4.get(Billing.SPOT));
    assertPrice("566.6625", PriceUnit.MONTH, g4.get(Billing.YEARLY));
    assertPrice("361.249625", PriceUnit.MONTH, g4.get(Billing.THREE_YEARS));
    assertEquals(0.125, offer(r, "g4-standard-6", "us-central1").get(Billing.ON_DEMAND).gpuCount());
  }

  @Test
  void rejects_missing_commitment_prices_with_reasons() {
    GcpPricingYmlFormat.Result r = parseSample();
    assertTrue(r.rejected().contains(
        "compute.instance.a2-ultragpu-8g.cost.us-central1: no month_1y (1-year commitment) price"), r.rejected().get(0));
    assertTrue(r.rejected().contains(
        "compute.instance.a2-ultragpu-8g.cost.us-central1: no month_3y (3-year commitment) price"));
    assertTrue(r.rejected().contains(
        "compute.instance.g4-standard-12.cost.europe-west10: no month_1y (1-year commitment) price"));
    Map<Billing, Quote> ultra = offer(r, "a2-ultragpu-8g", "us-central1");
    assertEquals(2, ultra.size(), "on-demand and spot are kept: " + ultra);
    assertEquals(160 * 2 + 7, r.rejected().stream().filter(s -> s.contains("commitment) price")).count());
  }

  @Test
  void rejects_zero_prices_unknown_gpus_and_skips_cpu_machines() {
    String yml = """
        about:
          generated: Thu Jul  2 06:13:17 2026
        compute:
          instance:
            n2-standard-8:
              cpu: 8
              ram: 32
              cost:
                us-central1: {hour: 0.388472, hour_spot: 0.0925, month: 283.58456}
            a9-imaginary-1g:
              warp-core: 1
              cost:
                us-central1: {hour: 1.5}
            g2-standard-4:
              cpu: 4
              l4: 1
              ram: 16
              cost:
                us-central1: {hour: 0, hour_spot: 0.2236, month_1y: abc, month_3y: 317.33}
        """;
    GcpPricingYmlFormat.Result r = GcpPricingYmlFormat.parse(Payload.of(Buffer.buffer(yml), "test"), def, catalog, FETCHED);
    assertEquals(3, r.machines());
    assertEquals(1, r.cpuMachinesSkipped());
    assertEquals(Instant.parse("2026-07-02T06:13:17Z"), r.generated());
    assertEquals(2, r.quotes().size(), r.quotes().toString());
    assertEquals(java.util.List.of(
        "compute.instance.a9-imaginary-1g: unknown GPU key 'warp-core' (1 per machine)",
        "compute.instance.g2-standard-4.cost.us-central1: hour price 0 is not an offer",
        "compute.instance.g2-standard-4.cost.us-central1: month_1y 'abc' is not a number"), r.rejected());
  }

  @Test
  void is_undated_without_about_header() {
    String yml = "compute:\n  instance:\n    g2-standard-4: {l4: 1, cost: {us-east1: {hour: 0.70683228}}}\n";
    GcpPricingYmlFormat.Result r = GcpPricingYmlFormat.parse(Payload.of(Buffer.buffer(yml), "test"), def, catalog, FETCHED);
    assertNull(r.generated());
    assertEquals(FETCHED, r.quotes().get(0).observedAt());
    assertNull(r.quotes().get(0).priceDate(), "no date of its own: undated, never the fetch's");
    assertEquals(Money.of("0.70683228", "USD"), r.quotes().get(0).price());
  }

  @Test
  void fails_on_a_payload_that_is_not_pricing_yml() {
    assertThrows(IllegalArgumentException.class,
        () -> GcpPricingYmlFormat.parse(Payload.of(Buffer.buffer("<html>not yaml: [</html>"), "test"), def, catalog, FETCHED));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GcpPricingYmlFormat.parse(Payload.of(Buffer.buffer("about: {generated: x}\n"), "test"), def, catalog, FETCHED));
    assertTrue(e.getMessage().contains("no compute.instance section"), e.getMessage());
  }

  @Test
  void ships_a_definition_for_the_live_file() {
    VendorDefinition shipped = VendorDefinition.load(Path.of("adapters/gcp-machines.yaml"));
    assertEquals("gcp-machines", shipped.vendor());
    assertEquals("Google Cloud (whole GPU machines)", shipped.displayName());
    assertEquals(GcpPricingYmlFormat.KIND, shipped.kind());
    assertEquals("https://raw.githubusercontent.com/Cyclenerd/google-cloud-pricing-cost-calculator/master/pricing.yml",
        shipped.config().getString("source"));
    assertEquals(java.time.Duration.ofDays(1), shipped.refresh());
    assertEquals("5m", shipped.config().getString("timeout"));
    VendorDefinition gcp = VendorDefinition.load(Path.of("adapters/gcp.yaml"));
    assertEquals(gcp.terms().storagePerGbMonth(), shipped.terms().storagePerGbMonth());
    assertEquals(gcp.terms().egress(), shipped.terms().egress());
    assertEquals(gcp.terms().loadBalancerPerMonth(), shipped.terms().loadBalancerPerMonth());
    assertTrue(AdapterRegistry.load().kinds().contains(GcpPricingYmlFormat.KIND));
  }

  @Test
  void fetches_through_the_adapter(Vertx vertx, VertxTestContext ctx) {
    new GcpPricingYmlFactory().create(vertx, def, catalog).fetch().onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
      assertEquals("gcp-machines", vq.vendor());
      assertEquals(3609, vq.quotes().size());
      assertEquals(327, vq.rejected().size());
      assertTrue(vq.quotes().stream().allMatch(q -> q.priceDate().equals(GENERATED) && !q.observedAt().equals(GENERATED)));
      ctx.completeNow();
    })));
  }
}
