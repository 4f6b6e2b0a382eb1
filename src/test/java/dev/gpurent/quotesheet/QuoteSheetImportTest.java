package dev.gpurent.quotesheet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.quote.ServicePrice;
import dev.gpurent.quotesheet.QuoteSheetReader.Upload;
import dev.gpurent.text.Lang;
import dev.gpurent.quotesheet.SheetLayout.TermItem;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writing a checked sheet as a vendor: what the YAML says, and what an import never overwrites. */
class QuoteSheetImportTest {

  static QuoteSheetImport.Result run(Path dir, String vendor, byte[] xlsx) {
    return QuoteSheetImport.run(dir, vendor, List.of(new Upload("rfq.xlsx", xlsx)), Fixtures.CATALOG, QuoteSheetReaderTest.CLOCK);
  }

  @Test
  void writes_terms_in_the_vendor_terms_format_and_keeps_the_sheet(@TempDir Path dir) throws Exception {
    byte[] xlsx = Sheets.edit(Sheets.guideQuote(Lang.EN, QuoteSheetReaderTest.TODAY), wb -> {
      Sheets.value(wb.getSheetAt(1), TermItem.INGRESS, "0", "CNY");
      Sheets.value(wb.getSheetAt(1), TermItem.MIGRATION_IN, "none", null);
      Sheets.value(wb.getSheetAt(1), TermItem.MIGRATION_OUT, "0.5", "CNY");
      Sheets.value(wb.getSheetAt(1), TermItem.BANDWIDTH, "1000", null);
      Sheets.value(wb.getSheetAt(1), TermItem.DISCOUNT, "0.9", null);
      Sheets.value(wb.getSheetAt(1), TermItem.CONTACT, "Li Lei <sales@example.com>", null);
    });
    QuoteSheetImport.Result r = run(dir, "acme", xlsx);
    assertEquals(List.of(dir.resolve("acme.quote.xlsx")), r.sheets());
    assertArrayEquals(xlsx, Files.readAllBytes(dir.resolve("acme.quote.xlsx")), "the sheet as received");
    VendorDefinition def = VendorDefinition.load(dir.resolve("acme.yaml"));
    JsonObject terms = def.config().getJsonObject("terms");
    assertEquals(new JsonObject().put("price", 0).put("source",
        "quote sheet rfq.xlsx of 2026-06-01, sheet terms row 5: the vendor quotes 0"), terms.getJsonObject("ingressPerGb"));
    assertEquals(ServicePrice.Availability.PRICED, def.terms().ingressPerGb().availability(), "a vendor-stated 0 is a price");
    assertEquals("none", terms.getString("migrationInPerGb"));
    assertEquals(0.5, terms.getDouble("migrationOutPerGb"));
    assertEquals(1000, terms.getInteger("bandwidthMbps"));
    assertEquals(0, new BigDecimal("0.9").compareTo(def.terms().discount()));
    assertEquals("Li Lei <sales@example.com>", def.config().getString("contact"));
    assertEquals("rfq.xlsx of 2026-06-01", def.terms().source().substring("quote sheet ".length()));
    assertTrue(r.yamlText().contains("    validUntil: \"2026-07-31\"\n"), r.yamlText());
  }

  @Test
  void replaces_an_earlier_import_but_never_a_hand_written_vendor(@TempDir Path dir) throws Exception {
    byte[] xlsx = Sheets.guideQuote(Lang.EN, QuoteSheetReaderTest.TODAY);
    run(dir, "acme", xlsx);
    run(dir, "acme", xlsx);  // the vendor's next quote replaces the last
    Files.copy(Path.of("adapters/guide-reference.yaml"), dir.resolve("guide-reference.yaml"));
    BadSheetException e = assertThrows(BadSheetException.class, () -> run(dir, "guide-reference", xlsx));
    assertEquals(List.of("vendor: guide-reference.yaml exists and was not imported from a quote sheet: choose another id "
        + "(it is never overwritten)"), Sheets.problems(e));
    Files.writeString(dir.resolve("other.yaml"), Files.readString(Path.of("adapters/guide-reference.yaml"))
        .replace("vendor: guide-reference", "vendor: beta"));
    e = assertThrows(BadSheetException.class, () -> run(dir, "beta", xlsx));
    assertEquals(List.of("vendor: vendor 'beta' is already defined by other.yaml: choose another id"), Sheets.problems(e));
    e = assertThrows(BadSheetException.class, () -> run(dir, "Acme Cloud", xlsx));
    assertEquals(List.of("vendor: the vendor id must be lowercase letters, digits and dashes (e.g. acme-cloud), got 'Acme Cloud'"),
        Sheets.problems(e));
    try (var files = Files.list(dir)) {
      assertEquals(List.of("acme.quote.xlsx", "acme.yaml", "guide-reference.yaml", "other.yaml"),
          files.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary file left behind");
    }
  }
}
