package dev.gpurent.quotesheet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gpurent.Fixtures;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quotesheet.QuoteSheetReader.Upload;
import dev.gpurent.text.Lang;
import dev.gpurent.quotesheet.SheetLayout.TermItem;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.poi.ss.usermodel.FormulaError;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;

/**
 * Every kind of bad cell a filled quote sheet can hold, each reported with its sheet, row and
 * column, and the whole sheet refused. Sheets are the real template filled with the guide's 5.1
 * prices (rows 2 and 3 of the offers sheet), then one cell spoiled, as a vendor would.
 */
class QuoteSheetReaderTest {

  static final LocalDate TODAY = LocalDate.parse("2026-06-01");
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-06-01T09:00:00Z"), ZoneOffset.UTC);

  static QuoteSheet read(byte[] xlsx) {
    return QuoteSheetReader.read(List.of(new Upload("quote.xlsx", xlsx)), Fixtures.CATALOG, CLOCK);
  }

  /** The problems of the guide's quote after {@code spoil}. */
  static List<String> problems(Consumer<XSSFWorkbook> spoil) {
    byte[] bad = Sheets.edit(Sheets.guideQuote(Lang.EN, TODAY), spoil);
    return Sheets.problems(assertThrows(BadSheetException.class, () -> read(bad)));
  }

  static Sheet offers(XSSFWorkbook wb) {
    return wb.getSheetAt(0);
  }

  static Sheet terms(XSSFWorkbook wb) {
    return wb.getSheetAt(1);
  }

  @Test
  void reads_the_guide_quote_with_its_real_values() {
    QuoteSheet s = read(Sheets.guideQuote(Lang.EN, TODAY));
    assertEquals(2, s.offers().size());
    QuoteSheet.Offer rtx = s.offers().get(0);
    assertEquals(List.of(2, "rtx-4090", "rtx-4090", Billing.MONTHLY, new BigDecimal("1500"), PriceUnit.MONTH, "CNY", "cn", "CN",
        LocalDate.parse("2026-07-31")), List.of(rtx.row(), rtx.gpuId(), rtx.offerId(), rtx.billing(), rtx.price(), rtx.unit(),
        rtx.currency(), rtx.region(), rtx.country(), rtx.validUntil()));
    QuoteSheet.Offer a100 = s.offers().get(1);
    assertEquals("a100-40g-sxm", a100.gpuId(), "the guide's 'A100 40G' spelling");
    assertEquals(Billing.ON_DEMAND, a100.billing());
    assertEquals(new BigDecimal("12"), a100.price());
    QuoteSheet.Terms t = s.terms();
    assertEquals("CNY", t.currency());
    assertEquals(new BigDecimal("0.1"), t.storage().price());
    assertEquals(new BigDecimal("0.8"), t.egress().get(0).perGb());
    assertEquals(new BigDecimal("200"), t.loadBalancer().price());
    assertEquals(QuoteSheet.Service.Status.UNKNOWN, t.ingress().status(), "left empty");
    assertEquals(TODAY, t.quoteDate());
    assertNull(t.discount());
  }

  @Test
  void a_card_name_that_two_cards_answer_to_is_read_and_the_sender_asked_which() {
    // the guide's "A100 40G": the SXM card the vendors' data mean by it, and a word that a PCIe one exists
    QuoteSheet s = read(Sheets.guideQuote(Lang.EN, TODAY));
    assertEquals("a100-40g-sxm", s.offers().get(1).gpuId());
    assertEquals(1, s.asks().size(), s.asks().toString());
    assertTrue(s.asks().get(0).toString().endsWith("'A100 40G' is more than one card: read as NVIDIA A100 40GB SXM (a100-40g-sxm); if it is another,"
        + " write its name: NVIDIA A100 40GB PCIe or NVIDIA A100 40GB SXM"), s.asks().get(0).toString());
    assertTrue(s.asks().get(0).toString().startsWith("sheet offers, row 3, column A (GPU model): "), "the cell is named: " + s.asks().get(0));
    // named with its form, or a card sold in one form only (RTX 4090): nothing to ask
    QuoteSheet said = read(Sheets.edit(Sheets.guideQuote(Lang.EN, TODAY), wb -> wb.getSheetAt(0).getRow(2).getCell(0).setCellValue("NVIDIA A100 40GB SXM")));
    assertEquals("a100-40g-sxm", said.offers().get(1).gpuId());
    assertEquals(List.of(), said.asks());
  }

  @Test
  void reads_the_chinese_template_filled_in_chinese() {
    QuoteSheet s = read(Sheets.edit(Sheets.guideQuote(Lang.ZH, TODAY), wb -> {
      Sheets.value(terms(wb), TermItem.MIGRATION_IN, "不提供", null);
      Sheets.value(terms(wb), TermItem.INGRESS, "0", "人民币");
      Sheets.value(terms(wb), TermItem.DISCOUNT, "9折", null);
      Sheets.value(terms(wb), TermItem.BANDWIDTH, "200", null);
    }));
    assertEquals(Billing.MONTHLY, s.offers().get(0).billing(), "包月");
    assertEquals(PriceUnit.HOUR, s.offers().get(1).unit(), "小时");
    assertEquals(QuoteSheet.Service.Status.NONE, s.terms().migrationIn().status());
    assertEquals(BigDecimal.ZERO, s.terms().ingress().price());
    assertEquals(new BigDecimal("0.9"), s.terms().discount());
    assertEquals(new BigDecimal("200"), s.terms().bandwidth().price());
  }

  // --- the bad cells

  @Test
  void names_an_unknown_gpu() {
    assertEquals(List.of("sheet offers, row 3, column A (GPU model): unknown GPU 'RTX 9999'; see config/gpus.yaml for the known cards"),
        problems(wb -> Sheets.cell(offers(wb), 3, "A").setCellValue("RTX 9999")));
  }

  @Test
  void names_a_negative_and_a_zero_price() {
    assertEquals(List.of("sheet offers, row 2, column I (Price): must be > 0, got -1500",
            "sheet offers, row 3, column I (Price): 0 is not a price: leave out an offer that is not sold, and put free services "
                + "in the terms sheet"),
        problems(wb -> {
          Sheets.cell(offers(wb), 2, "I").setCellValue(-1500);
          Sheets.cell(offers(wb), 3, "I").setCellValue("0");
        }));
  }

  @Test
  void names_a_missing_and_an_unknown_currency() {
    assertEquals(List.of("sheet offers, row 2, column K (Currency): is empty; it is required",
            "sheet offers, row 3, column K (Currency): 'XYZ' is not an ISO 4217 currency code"),
        problems(wb -> {
          Sheets.cell(offers(wb), 2, "K").setBlank();
          Sheets.cell(offers(wb), 3, "K").setCellValue("XYZ");
        }));
  }

  @Test
  void names_mixed_currencies_in_one_terms_sheet() {
    assertEquals(List.of("sheet terms, row 4, column C (Currency): mixed currencies in one terms sheet: USD here, CNY in row 3; "
            + "quote every term in one currency"),
        problems(wb -> Sheets.value(terms(wb), TermItem.EGRESS, "0.12", "USD")));
  }

  @Test
  void names_a_term_price_without_its_currency() {
    assertEquals(List.of("sheet terms, row 6, column C (Currency): missing currency for the price 200"),
        problems(wb -> Sheets.cell(terms(wb), Sheets.termRow(TermItem.LOAD_BALANCER), "C").setBlank()));
  }

  @Test
  void names_a_valid_until_date_in_the_past() {
    assertEquals(List.of("sheet offers, row 2, column L (Valid until): 2026-05-31 is in the past (today is 2026-06-01): this quote "
            + "has expired; ask the vendor for a current one"),
        problems(wb -> Sheets.cell(offers(wb), 2, "L").setCellValue("2026-05-31")));
  }

  @Test
  void names_text_and_numbers_where_a_date_belongs() {
    assertEquals(List.of("sheet offers, row 2, column L (Valid until): 'end of June' is not a date: write it as YYYY-MM-DD",
            "sheet offers, row 3, column L (Valid until): a number (46234), not a date: write it as YYYY-MM-DD"),
        problems(wb -> {
          Sheets.cell(offers(wb), 2, "L").setCellValue("end of June");
          Sheets.cell(offers(wb), 3, "L").setCellValue(46234);  // an Excel date serial without a date format
        }));
  }

  @Test
  void names_text_in_a_number_cell() {
    assertEquals(List.of("sheet offers, row 2, column C (vCPU): text in a number cell: 'sixteen'",
            "sheet offers, row 3, column I (Price): text in a number cell: '¥12' (write the number alone, e.g. 1500 or 0.8: "
                + "no currency signs, units or thousands separators)"),
        problems(wb -> {
          Sheets.cell(offers(wb), 2, "C").setCellValue("sixteen");
          Sheets.cell(offers(wb), 3, "I").setCellValue("¥12");
        }));
  }

  @Test
  void names_a_formula_cell_and_an_error_cell() {
    assertEquals(List.of("sheet offers, row 2, column I (Price): a formula (=1000+500): type the value itself",
            "sheet terms, row 3, column B (Value): an error value (#DIV/0!)"),
        problems(wb -> {
          Sheets.cell(offers(wb), 2, "I").setCellFormula("1000+500");
          Sheets.cell(terms(wb), Sheets.termRow(TermItem.STORAGE), "B").setCellErrorValue(FormulaError.DIV0.getCode());
        }));
  }

  @Test
  void refuses_a_20_mb_file_by_its_size() {
    BadSheetException e = assertThrows(BadSheetException.class, () -> QuoteSheetReader.read(
        List.of(Upload.tooLarge("big.xlsx", 20L * 1024 * 1024)), Fixtures.CATALOG, CLOCK));
    assertEquals(List.of("file big.xlsx: 20.0 MB, over the 5 MB limit of a quote sheet"), Sheets.problems(e));
    byte[] twenty = new byte[20 * 1024 * 1024];
    e = assertThrows(BadSheetException.class, () -> QuoteSheetReader.read(List.of(new Upload("big.xlsx", twenty)),
        Fixtures.CATALOG, CLOCK));
    assertEquals(List.of("file big.xlsx: 20.0 MB, over the 5 MB limit of a quote sheet"), Sheets.problems(e));
  }

  @Test
  void refuses_files_that_are_not_xlsx() throws Exception {
    assertEquals(List.of("file quote.xlsx: not an .xlsx workbook (nor a .csv file)"), Sheets.problems(assertThrows(
        BadSheetException.class, () -> read("%PDF-1.4\n%âãÏÓ\n".getBytes(StandardCharsets.UTF_8)))));
    ByteArrayOutputStream zip = new ByteArrayOutputStream();
    try (ZipOutputStream z = new ZipOutputStream(zip)) {
      z.putNextEntry(new ZipEntry("readme.txt"));
      z.write("not a workbook".getBytes(StandardCharsets.UTF_8));
      z.closeEntry();
    }
    List<String> p = Sheets.problems(assertThrows(BadSheetException.class, () -> read(zip.toByteArray())));
    assertEquals(1, p.size());
    assertEquals(true, p.get(0).startsWith("file quote.xlsx: not a readable .xlsx workbook: "), p.get(0));
    byte[] xls = {(byte) 0xD0, (byte) 0xCF, 0x11, (byte) 0xE0, (byte) 0xA1, (byte) 0xB1, 0x1A, (byte) 0xE1, 0, 0};
    assertEquals(List.of("file quote.xlsx: an old .xls workbook: save it as .xlsx (Excel Workbook) and try again"),
        Sheets.problems(assertThrows(BadSheetException.class, () -> read(xls))));
  }

  @Test
  void names_an_unknown_billing_mode_and_a_unit_that_does_not_fit_it() {
    assertEquals(List.of("sheet offers, row 2, column H (Billing mode and term): unknown billing mode 'weekly'; use on-demand, "
            + "monthly, yearly, 3-year or spot (按量, 包月, 包年, 3年, 竞价)",
            "sheet offers, row 3, column J (Price per): on-demand is paid by the hour used: give the price per hour, got per month"),
        problems(wb -> {
          Sheets.cell(offers(wb), 2, "H").setCellValue("weekly");
          Sheets.cell(offers(wb), 3, "J").setCellValue("month");
        }));
  }

  @Test
  void needs_the_unit_of_a_three_year_price_and_spreads_a_term_price_per_year() {
    assertEquals(List.of("sheet offers, row 2, column J (Price per): a 3-year price must say whether it is per hour, month, year "
            + "or for the whole term"),
        problems(wb -> {
          Sheets.cell(offers(wb), 2, "H").setCellValue("3-year");
          Sheets.cell(offers(wb), 2, "J").setBlank();
        }));
    QuoteSheet s = read(Sheets.edit(Sheets.guideQuote(Lang.EN, TODAY), wb -> {
      Sheets.cell(offers(wb), 2, "H").setCellValue("3年");
      Sheets.cell(offers(wb), 2, "I").setCellValue("36000");
      Sheets.cell(offers(wb), 2, "J").setCellValue("整期");
    }));
    assertEquals(List.of(Billing.THREE_YEARS, new BigDecimal("12000"), PriceUnit.YEAR),
        List.of(s.offers().get(0).billing(), s.offers().get(0).price(), s.offers().get(0).unit()));
  }

  @Test
  void names_impossible_gpu_counts() {
    assertEquals(List.of("sheet offers, row 2, column B (GPUs per instance): must be more than 0 and at most 64, got 0",
            "sheet offers, row 3, column B (GPUs per instance): must be more than 0 and at most 64, got 100"),
        problems(wb -> {
          Sheets.cell(offers(wb), 2, "B").setCellValue("0");
          Sheets.cell(offers(wb), 3, "B").setCellValue(100);
        }));
  }

  @Test
  void names_a_country_that_is_not_a_code() {
    assertEquals(List.of("sheet offers, row 2, column F (Country (ISO code)): must be a 2-letter ISO 3166 code (CN, HK, SG, US...), "
        + "got 'China'"), problems(wb -> Sheets.cell(offers(wb), 2, "F").setCellValue("China")));
  }

  @Test
  void names_the_same_offer_twice() {
    assertEquals(List.of("sheet offers, row 4: the same offer (rtx-4090 in cn, monthly) as row 2: give each its own instance type, "
        + "or keep one"), problems(wb -> Sheets.row(offers(wb), 4, "RTX4090", "", "", "", "cn", "CN", "", "包月", "1400", "",
            "CNY", "", "")));
  }

  @Test
  void refuses_the_example_row_left_in() {
    byte[] template = QuoteSheetTemplate.xlsx(Lang.ZH, TODAY);
    assertEquals(List.of("sheet 报价, row 2, column G (实例规格): this is the template's example row: replace it with a real offer "
        + "or delete it"), Sheets.problems(assertThrows(BadSheetException.class, () -> read(template))));
  }

  @Test
  void names_a_missing_required_cell_and_an_unknown_column() {
    assertEquals(List.of("sheet offers, row 1, column N (Target price): unknown column; known: GPU model, GPUs per instance, vCPU, "
            + "RAM (GiB), Region, Country (ISO code), Instance type, Billing mode and term, Price, Price per, Currency, Valid until, Note, Target price to rank #1"),
        problems(wb -> Sheets.cell(offers(wb), 1, "N").setCellValue("Target price")));
    assertEquals(List.of("sheet offers, row 2, column A (GPU model): is empty; it is required"),
        problems(wb -> Sheets.cell(offers(wb), 2, "A").setBlank()));
  }

  @Test
  void names_a_workbook_without_an_offers_sheet() {
    assertEquals(List.of("file quote.xlsx: no sheet named 'offers' or '报价' (sheets: prices, terms, instructions)"),
        problems(wb -> wb.setSheetName(0, "prices")));
  }

  @Test
  void names_bad_terms_values() {
    assertEquals(List.of(
            "sheet terms, row 3, column B (Value): must be >= 0, got -0.1 (0: free; none: not sold; empty: unknown)",
            "sheet terms, row 10, column B (Value): must be a multiplier above 0 and at most 1 (0.9 = 10% off), got 1.2",
            "sheet terms, row 12, column B (Value): 2026-07-01 is in the future (today is 2026-06-01)",
            "sheet terms, row 13, column A (Item): unknown item 'GPU warranty'; known: Vendor name; Object storage, per GB-month; "
                + "Internet egress, per GB; Ingress, per GB; Load balancer, per month; Data migration in, per GB; Data migration "
                + "out, per GB; Bandwidth cap, Mbps; Negotiated discount (multiplier: 0.9 = 10% off); Contact; Quote date"),
        problems(wb -> {
          Sheets.value(terms(wb), TermItem.STORAGE, "-0.1", "CNY");
          Sheets.value(terms(wb), TermItem.DISCOUNT, "1.2", null);
          Sheets.value(terms(wb), TermItem.QUOTE_DATE, "2026-07-01", null);
          Sheets.row(terms(wb), 13, "GPU warranty", "3 years");
        }));
  }

  @Test
  void reads_egress_tiers_and_names_a_bounded_last_tier() {
    QuoteSheet s = read(Sheets.edit(Sheets.guideQuote(Lang.EN, TODAY), wb -> {
      Sheets.cell(terms(wb), Sheets.termRow(TermItem.EGRESS), "D").setCellValue("1024");
      Sheets.row(terms(wb), 13, "Internet egress, per GB", "0.6", "CNY", "");
    }));
    assertEquals(2, s.terms().egress().size());
    assertEquals(new BigDecimal("1024"), s.terms().egress().get(0).upToGb());
    assertEquals(new BigDecimal("0.6"), s.terms().egress().get(1).perGb());
    assertEquals(List.of("sheet terms, row 4, column D (Up to GB a month (egress tiers)): the last egress tier must have no upper "
            + "bound (it prices everything above the tiers before it)"),
        problems(wb -> Sheets.cell(terms(wb), Sheets.termRow(TermItem.EGRESS), "D").setCellValue("1024")));
  }

  @Test
  void reads_the_csv_pair_and_refuses_a_csv_formula() {
    String offers = "GPU model,GPUs per instance,Billing mode and term,Price,Currency,Valid until\r\n"
        + "H100 SXM,8,on-demand,180,CNY,2026-12-31\r\n"
        + "\"RTX 4090\",1,竞价,0.8,cny,\r\n";
    String terms = "\uFEFF项目,数值,币种\n对象存储（每 GB·月）,0.12,CNY\n公网出流量（每 GB）,none,\n";
    QuoteSheet s = QuoteSheetReader.read(List.of(new Upload("offers.csv", offers.getBytes(StandardCharsets.UTF_8)),
        new Upload("terms.csv", terms.getBytes(StandardCharsets.UTF_8))), Fixtures.CATALOG, CLOCK);
    assertEquals(List.of("h100-sxm-8x", "rtx-4090"), s.offers().stream().map(QuoteSheet.Offer::offerId).toList());
    assertEquals(Billing.SPOT, s.offers().get(1).billing());
    assertEquals(QuoteSheet.Service.Status.NONE, s.terms().egressStatus().status());
    BadSheetException e = assertThrows(BadSheetException.class, () -> QuoteSheetReader.read(List.of(new Upload("offers.csv",
        offers.replace(",180,", ",=SUM(A1:A9),").getBytes(StandardCharsets.UTF_8))), Fixtures.CATALOG, CLOCK));
    assertEquals(List.of("sheet offers, row 2, column D (Price): a formula (=SUM(A1:A9)): type the value itself"),
        Sheets.problems(e));
  }
}
