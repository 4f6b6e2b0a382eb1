package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(VertxExtension.class)
class Ec2InstancesInfoFormatTest {

  static final Path DIR = Path.of("../shared/data/aws/ec2instances-info");
  static final Path OPSZERO = DIR.resolve("opszero-instances.gpu.non-eu.json");
  static final Path WWW_2017 = DIR.resolve("www-instances.gpu.2017-10-26.json");
  static final Path CHINA = DIR.resolve("china-regions/tsaol-gpu_instances_raw_cn.2026-01-21.json");
  static final Instant FETCHED = Instant.parse("2026-01-01T00:00:00Z");

  static GpuCatalog catalog;
  static VendorDefinition global;
  static VendorDefinition china;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
    global = VendorDefinition.load(Path.of("adapters/aws-ec2info.yaml"));
    china = VendorDefinition.load(Path.of("adapters/aws-china.yaml"));
  }

  static Optional<Quote> find(VendorQuotes q, String type, String region, Billing billing) {
    return q.quotes().stream()
        .filter(x -> x.offerId().equals(type) && x.region().equals(region) && x.billing() == billing)
        .findFirst();
  }

  static Quote get(VendorQuotes q, String type, String region, Billing billing) {
    return find(q, type, region, billing).orElseThrow(() -> new AssertionError("no " + billing + " quote for " + type + " in " + region));
  }

  // ------------------------------------------------------------------- opszero flat file

  @Test
  void parses_opszero_flat_records_with_on_demand_and_spot_prices() {
    VendorQuotes q = Ec2InstancesInfoFormat.parse(Payload.of(OPSZERO), global, catalog, FETCHED);
    assertEquals("aws-ec2info", q.vendor());
    assertEquals("AWS (via ec2instances.info)", q.displayName());
    // 557 records: 94 Inferentia/Trainium + 5 without any price refused; 458 on-demand + 340 spot quotes
    assertEquals(798, q.quotes().size());
    assertEquals(99, q.rejected().size());
    assertEquals(458, q.quotes().stream().filter(x -> x.billing() == Billing.ON_DEMAND).count());
    assertEquals(340, q.quotes().stream().filter(x -> x.billing() == Billing.SPOT).count());

    Quote p3 = get(q, "p3.2xlarge", "us-east-1", Billing.ON_DEMAND);
    assertEquals(Money.of("3.06", "USD"), p3.price());
    assertEquals(PriceUnit.HOUR, p3.unit());
    assertEquals("v100-16g", p3.gpuId());
    assertEquals(1, p3.gpuCount());
    assertEquals(8, p3.vcpus());
    assertEquals(61, p3.ramGiB());
    assertEquals(FETCHED, p3.observedAt());
    assertEquals("ec2instances-info:" + OPSZERO, p3.source());
    assertEquals(Money.of("1.407600", "USD"), get(q, "p3.2xlarge", "us-east-1", Billing.SPOT).price());

    Quote g4 = get(q, "g4dn.xlarge", "us-east-1", Billing.ON_DEMAND);
    assertEquals(Money.of("0.526", "USD"), g4.price());
    assertEquals("t4", g4.gpuId());
    assertEquals(Money.of("0.215660", "USD"), get(q, "g4dn.xlarge", "us-east-1", Billing.SPOT).price());
  }

  @Test
  void picks_the_a100_and_v100_variant_from_the_gpu_memory_of_opszero_records() {
    VendorQuotes q = Ec2InstancesInfoFormat.parse(Payload.of(OPSZERO), global, catalog, FETCHED);
    Quote p4de = get(q, "p4de.24xlarge", "us-east-1", Billing.ON_DEMAND);
    assertEquals("a100-80g-sxm", p4de.gpuId());          // family p4de, 640 GiB / 8
    assertEquals(8, p4de.gpuCount());
    assertEquals(Money.of("40.96575", "USD"), p4de.price());
    assertTrue(find(q, "p4de.24xlarge", "us-east-1", Billing.SPOT).isEmpty(), "spot_avg null: no spot offer");
    assertEquals("v100-32g", get(q, "p3dn.24xlarge", "us-east-1", Billing.ON_DEMAND).gpuId());  // 256 GiB / 8
    assertEquals("radeon-pro-v520", get(q, "g4ad.xlarge", "us-east-1", Billing.ON_DEMAND).gpuId());
    assertEquals("t4", get(q, "g5g.xlarge", "us-east-1", Billing.ON_DEMAND).gpuId());
    // "GPU": 4 with 96 GiB of K80 memory: the feed counted boards; AWS and the catalog count 8 GK210s of 12 GiB
    Quote p2 = get(q, "p2.8xlarge", "us-east-1", Billing.ON_DEMAND);
    assertEquals("k80", p2.gpuId());
    assertEquals(8, p2.gpuCount());
    assertEquals(Money.of("7.2", "USD"), p2.price());
  }

  @Test
  void rejects_inferentia_trainium_and_unpriced_opszero_rows_with_reasons() {
    VendorQuotes q = Ec2InstancesInfoFormat.parse(Payload.of(OPSZERO), global, catalog, FETCHED);
    assertTrue(q.rejected().contains("row 40 (inf1.xlarge, us-east-1): AWS Inferentia accelerators are not GPUs in the catalog"),
        q.rejected().toString());
    assertTrue(q.rejected().contains("row 46 (trn1.32xlarge, us-east-1): AWS Trainium accelerators are not GPUs in the catalog"));
    assertTrue(q.rejected().contains(
        "row 229 (p5.48xlarge, us-east-1): no usable price: ondemand '0' (0 means unknown); spot_avg '0.000000' (0 means unknown)"));
    Map<String, Long> byReason = q.rejected().stream().collect(Collectors.groupingBy(
        r -> r.substring(r.indexOf(": ") + 2).replaceAll("'[^']*'", "''"), Collectors.counting()));
    assertEquals(Map.of(
        "AWS Inferentia accelerators are not GPUs in the catalog", 61L,
        "AWS Inferentia2 accelerators are not GPUs in the catalog", 24L,
        "AWS Trainium accelerators are not GPUs in the catalog", 9L,
        "no usable price: ondemand '' (0 means unknown); spot_avg '' (0 means unknown)", 5L), byReason);
    assertTrue(find(q, "p5.48xlarge", "us-east-1", Billing.ON_DEMAND).isEmpty());
  }

  // ------------------------------------------------------------------- www format, 2017

  @Test
  void parses_the_2017_www_file_with_effective_hourly_reserved_rates() {
    VendorQuotes q = Ec2InstancesInfoFormat.parse(Payload.of(WWW_2017), global, catalog, FETCHED);
    // 9 instance types in 75 (type, region) pairs, each with on-demand, 1-year and 3-year standard rates
    assertEquals(225, q.quotes().size());
    assertEquals(List.of(), q.rejected());
    assertEquals(75, q.quotes().stream().filter(x -> x.billing() == Billing.YEARLY).count());
    assertEquals(75, q.quotes().stream().filter(x -> x.billing() == Billing.THREE_YEARS).count());

    assertEquals(Money.of("3.06", "USD"), get(q, "p3.2xlarge", "us-east-1", Billing.ON_DEMAND).price());
    // the cheapest standard option per term: yrTerm1Standard.allUpfront 1.949 (noUpfront 2.088, partial 1.990)
    Quote yearly = get(q, "p3.2xlarge", "us-east-1", Billing.YEARLY);
    assertEquals(Money.of("1.949", "USD"), yearly.price());
    assertEquals(PriceUnit.HOUR, yearly.unit());
    // yrTerm3Standard.allUpfront 1.159; the (cheaper-looking) convertible keys are not read
    Quote threeYears = get(q, "p3.2xlarge", "us-east-1", Billing.THREE_YEARS);
    assertEquals(Money.of("1.159", "USD"), threeYears.price());
    assertEquals(PriceUnit.HOUR, threeYears.unit());
    assertEquals("v100-16g", yearly.gpuId());

    // no GPU_memory in 2017: the count is the GPU field (8 for p2.8xlarge)
    Quote p2 = get(q, "p2.8xlarge", "us-east-1", Billing.ON_DEMAND);
    assertEquals("k80", p2.gpuId());
    assertEquals(8, p2.gpuCount());
    assertEquals(Money.of("7.2", "USD"), p2.price());
    assertEquals("m60", get(q, "g3.4xlarge", "eu-west-1", Billing.ON_DEMAND).gpuId());
    assertTrue(q.quotes().stream().allMatch(x -> x.price().currency().equals("USD")));
  }

  // ------------------------------------------------------------------- China file (CNY)

  @Test
  void parses_the_china_file_in_cny() {
    VendorQuotes q = Ec2InstancesInfoFormat.parse(Payload.of(CHINA), china, catalog, FETCHED);
    assertEquals("aws-china", q.vendor());
    assertEquals("AWS China (Beijing, Ningxia)", q.displayName());
    // 30 types: 4 inf1 and g2.2xlarge (no prices) refused; 50 on-demand + 29 + 29 reserved quotes
    assertEquals(108, q.quotes().size());
    assertEquals(5, q.rejected().size());
    assertTrue(q.quotes().stream().allMatch(x -> x.price().currency().equals("CNY")));

    Quote g4 = get(q, "g4dn.xlarge", "cn-north-1", Billing.ON_DEMAND);
    assertEquals(Money.of("5.223", "CNY"), g4.price());
    assertEquals("CNY", g4.price().currency());
    assertEquals("t4", g4.gpuId());
    assertEquals(1, g4.gpuCount());
    assertEquals(Money.of("2.559475", "CNY"), get(q, "g4dn.xlarge", "cn-north-1", Billing.YEARLY).price());
    assertEquals(Money.of("1.774505", "CNY"), get(q, "g4dn.xlarge", "cn-north-1", Billing.THREE_YEARS).price());
    assertEquals(Money.of("3.711", "CNY"), get(q, "g4dn.xlarge", "cn-northwest-1", Billing.ON_DEMAND).price());

    Quote p3 = get(q, "p3.2xlarge", "cn-north-1", Billing.ON_DEMAND);
    assertEquals(Money.of("36.078", "CNY"), p3.price());
    assertEquals("v100-16g", p3.gpuId());
    assertTrue(find(q, "p3.2xlarge", "cn-north-1", Billing.YEARLY).isEmpty(), "reserved is empty for p3 in China");

    // "NVIDIA A100" with 320 GiB / 8 = 40 GiB per GPU
    Quote p4d = get(q, "p4d.24xlarge", "cn-northwest-1", Billing.ON_DEMAND);
    assertEquals("a100-40g-sxm", p4d.gpuId());
    assertEquals(8, p4d.gpuCount());
    assertEquals(Money.of("172.873412", "CNY"), p4d.price());
    assertEquals(Money.of("102.294635", "CNY"), get(q, "p4d.24xlarge", "cn-northwest-1", Billing.YEARLY).price());

    assertEquals(16, get(q, "p2.16xlarge", "cn-north-1", Billing.ON_DEMAND).gpuCount());  // "GPU": 8, 192 GiB of K80
    // local zone: on-demand only (its reserved keys are Savings Plans, not read)
    assertEquals(Money.of("9.51389", "CNY"), get(q, "g5.xlarge", "cn-north-1-pkx-1", Billing.ON_DEMAND).price());
    assertTrue(find(q, "g5.xlarge", "cn-north-1-pkx-1", Billing.YEARLY).isEmpty());
  }

  @Test
  void rejects_china_inferentia_and_unpriced_types_with_reasons() {
    VendorQuotes q = Ec2InstancesInfoFormat.parse(Payload.of(CHINA), china, catalog, FETCHED);
    assertEquals(List.of(
        "row 0 (g2.2xlarge): no prices in any region (pricing is empty)",
        "row 19 (inf1.24xlarge): AWS Inferentia accelerators (GPU_model 'AWS Inferentia') are not GPUs in the catalog",
        "row 20 (inf1.2xlarge): AWS Inferentia accelerators (GPU_model 'AWS Inferentia') are not GPUs in the catalog",
        "row 21 (inf1.6xlarge): AWS Inferentia accelerators (GPU_model 'AWS Inferentia') are not GPUs in the catalog",
        "row 22 (inf1.xlarge): AWS Inferentia accelerators (GPU_model 'AWS Inferentia') are not GPUs in the catalog"),
        q.rejected());
  }

  @Test
  void quotes_cn_regions_in_cny_and_others_in_usd_whatever_the_vendor_currency(@TempDir Path tmp) throws IOException {
    Path f = tmp.resolve("mixed.json");
    Files.writeString(f, """
        [{"instance_type": "g4dn.xlarge", "GPU": 1, "GPU_model": "NVIDIA T4 Tensor Core", "GPU_memory": 16,
          "pricing": {"us-east-1": {"linux": {"ondemand": "0.526", "spot_avg": "0.2", "reserved": {}}},
                      "cn-north-1": {"linux": {"ondemand": "5.223"}, "mswin": {"ondemand": "9"}},
                      "eu-west-1": {"mswin": {"ondemand": "1"}}}},
         {"instance_type": "g9.xlarge", "GPU": 1, "GPU_model": "NVIDIA Z999", "pricing": {}},
         {"instance_type": "m5.large", "GPU": 0, "pricing": {"us-east-1": {"linux": {"ondemand": "0.096"}}}}]
        """);
    VendorQuotes q = Ec2InstancesInfoFormat.parse(Payload.of(f), global, catalog, FETCHED);
    assertEquals(Money.of("0.526", "USD"), get(q, "g4dn.xlarge", "us-east-1", Billing.ON_DEMAND).price());
    assertEquals(Money.of("0.2", "USD"), get(q, "g4dn.xlarge", "us-east-1", Billing.SPOT).price());
    assertEquals(Money.of("5.223", "CNY"), get(q, "g4dn.xlarge", "cn-north-1", Billing.ON_DEMAND).price());
    assertEquals(3, q.quotes().size());
    assertEquals(List.of(
        "row 0 (g4dn.xlarge, eu-west-1): no linux prices",
        "row 1 (g9.xlarge): unknown GPU 'NVIDIA Z999' (instance family 'g9' is not in the family table either)",
        "skipped 1 record: instance types without GPUs (first: row 2 (m5.large))"), q.rejected());
  }

  @Test
  void refuses_a_payload_that_is_not_an_instances_file(@TempDir Path tmp) throws IOException {
    Path f = tmp.resolve("x.json");
    Files.writeString(f, "{\"products\": {}}");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Ec2InstancesInfoFormat.parse(Payload.of(f), global, catalog, FETCHED));
    assertEquals("not an instances.json: an object without a 'data' array of instances", e.getMessage());
    Files.writeString(f, "<html>");
    assertThrows(IllegalArgumentException.class, () -> Ec2InstancesInfoFormat.parse(Payload.of(f), global, catalog, FETCHED));
  }

  @Test
  void fetches_the_china_file_through_the_adapter(Vertx vertx, VertxTestContext ctx) {
    VendorDefinition def = VendorDefinition.from(china.config().copy().put("source", CHINA.toString()), china.where());
    VendorAdapter adapter = AdapterRegistry.load().factory("ec2instances-info").create(vertx, def, catalog);
    adapter.fetch().onComplete(ctx.succeeding(q -> ctx.verify(() -> {
      assertEquals(108, q.quotes().size());
      assertEquals(5, q.rejected().size());
      Quote g4 = get(q, "g4dn.xlarge", "cn-north-1", Billing.ON_DEMAND);
      assertEquals(Money.of("5.223", "CNY"), g4.price());
      assertEquals("ec2instances-info:" + CHINA, g4.source());
      ctx.completeNow();
    })));
  }
}
