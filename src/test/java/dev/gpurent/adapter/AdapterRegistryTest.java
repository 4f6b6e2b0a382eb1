package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class AdapterRegistryTest {

  @Test
  void finds_the_static_kind_through_service_loader() {
    assertTrue(AdapterRegistry.load().kinds().contains("static"));
  }

  @Test
  void names_the_known_kinds_when_one_is_unknown() {
    AdapterRegistry registry = AdapterRegistry.load();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> registry.factory("csv-magic"));
    assertEquals("unknown adapter kind 'csv-magic'; known kinds: " + String.join(", ", registry.kinds()), e.getMessage());
  }

  @Test
  void reads_the_guide_reference_sheet() {
    VendorQuotes q = Fixtures.guideReference();
    assertEquals("guide-reference", q.vendor());
    assertEquals(12, q.quotes().size(), "8 single cards' prices and 4 of the two 2-card machines");
    assertEquals(0, q.rejected().size());
    assertTrue(q.reference(), "the guide's sheet is a reference, not a vendor");
    Quote monthly = q.quotes().stream().filter(x -> x.billing() == Billing.MONTHLY).findFirst().orElseThrow();
    assertEquals("rtx-4090", monthly.gpuId());
    assertEquals(Money.of("1500", "CNY"), monthly.price());
    assertEquals(PriceUnit.MONTH, monthly.unit());
    assertEquals(Money.of("0.8", "CNY"), q.terms().egressPerGb());
    assertEquals(Money.of("200", "CNY"), q.terms().loadBalancerPerMonth().price());
    assertEquals("reference prices from the budgeting guide, not a real vendor's quote", q.note());
  }

  @Test
  void rejects_bad_sheet_rows_with_reasons_and_keeps_the_rest() {
    VendorDefinition def = VendorDefinition.load(Path.of("adapters/guide-reference.yaml"));
    JsonObject c = def.config().copy();
    c.getJsonArray("offers").add(new JsonObject().put("gpu", "RTX 9999").put("prices", new JsonObject().put("on-demand", "1/hour")));
    c.getJsonArray("offers").add(new JsonObject().put("gpu", "l4").put("prices", new JsonObject().put("on-demand", "0/hour")));
    c.getJsonArray("offers").add(new JsonObject().put("gpu", "l4").put("prices", new JsonObject().put("weekly", "5/hour")));
    VendorQuotes q = new StaticSheetFactory().create(null, VendorDefinition.from(c, def.where()), Fixtures.CATALOG).fetch().result();
    assertEquals(12, q.quotes().size());
    assertEquals(java.util.List.of(
        "offers[8]: unknown GPU 'RTX 9999'; see config/gpus.yaml for the known cards",
        "offers[9]: price '0/hour' must be > 0",
        "offers[10]: unknown billing mode 'weekly'; known: on-demand, spot, monthly, 3-month, 6-month, yearly, 3-year"), q.rejected());
  }

  @Test
  void refuses_a_vendor_file_without_terms() {
    JsonObject c = new JsonObject().put("vendor", "x").put("kind", "static").put("currency", "USD");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> VendorDefinition.from(c, Path.of("adapters/x.yaml")));
    assertEquals("adapters/x.yaml: terms: is required (storagePerGbMonth, egressPerGb, ingressPerGb, loadBalancerPerMonth, source)", e.getMessage());
  }
}
