package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.report.RankingCsv;
import dev.gpurent.report.RankingWorkbook;
import dev.gpurent.report.RankingXlsx;
import dev.gpurent.text.Lang;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every bill of the recorded sample root ({@code bench/sample-root.sh}), for every shipped scenario
 * (and one with a migration) with and without the guide's reference ranked: each line's unit price times its units rounds
 * to its cent, the invariant the workbook's formulas rest on, and the workbook of each ranking,
 * evaluated by POI, gives exactly the JSON's figures.
 */
class SampleRootBillsTest {

  /** Each ranking, by scenario file and whether the reference was ranked. */
  static final Map<String, Map<String, Object>> RANKINGS = new LinkedHashMap<>();
  /** The same rankings as the engine returns them, for the CSV. */
  static final Map<String, Ranking> RANKED = new LinkedHashMap<>();

  @BeforeAll
  static void rankEveryScenario() throws Exception {
    Path root = SampleRootTest.build();
    StringWriter log = new StringWriter();
    try (Workspace ws = new Workspace(root)) {
      QuoteBook book = ws.quoteBook(null, false, false, new PrintWriter(log, true));
      CostModel model = new CostModel(ws.catalog, ws.rules);
      List<Path> files;
      try (Stream<Path> s = Files.list(Path.of("config/scenarios"))) {
        files = s.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
      }
      Map<String, Map<String, Object>> scenarios = new LinkedHashMap<>();
      for (Path f : files) scenarios.put(f.getFileName().toString(), castMap(YamlFiles.load(f)));
      // and a migration spread over a horizon that does not divide it: the one-time lines
      Map<String, Object> moving = new LinkedHashMap<>(scenarios.get("team-large.yaml"));
      moving.put("horizonMonths", 7);
      moving.put("migration", Map.of("gb", 1234.5, "sourceEgressPerGb", 0.0731, "fromVendor", "runpod"));
      scenarios.put("team-large.yaml with a migration over 7 months", moving);
      for (var e : scenarios.entrySet()) {
        Scenario s = new ScenarioReader(ws.catalog).read(e.getValue());
        for (boolean ref : new boolean[] {false, true}) {
          Scenario with = s.withConstraints(s.constraints().withIncludeReference(ref));
          Ranking r = model.rank(with, book);
          RANKED.put(e.getKey() + (ref ? " --include-reference" : ""), r);
          RANKINGS.put(e.getKey() + (ref ? " --include-reference" : ""), r.toMap());
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> castMap(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> bills(Map<String, Object> ranking) {
    List<Map<String, Object>> out = new ArrayList<>((List<Map<String, Object>>) ranking.get("plans"));
    if (ranking.get("reference") != null) out.add((Map<String, Object>) ranking.get("reference"));
    if (ranking.get("mixed") != null) out.add((Map<String, Object>) ranking.get("mixed"));
    return out;
  }

  @Test
  @SuppressWarnings("unchecked")
  void every_line_bills_its_units_at_its_unit_price_to_the_cent() {
    int lines = 0, plans = 0, mixed = 0, once = 0;
    for (var e : RANKINGS.entrySet()) {
      for (Map<String, Object> plan : bills(e.getValue())) {
        plans++;
        if (plan.containsKey("homeVendor")) mixed++;
        for (Map<String, Object> l : (List<Map<String, Object>>) ((Map<String, Object>) plan.get("bill")).get("lines")) {
          BigDecimal units = new BigDecimal((String) l.get("quantity"));
          BigDecimal exact = new BigDecimal((String) l.get("unitPrice")).multiply(units);
          assertEquals(new BigDecimal((String) l.get("perMonth")), exact.setScale(2, RoundingMode.HALF_UP),
              e.getKey() + ": " + plan.get("vendor") + " " + l.get("item") + ": " + l.get("unitPrice") + " x " + units);
          assertTrue(units.signum() > 0 || new BigDecimal((String) l.get("perMonth")).signum() == 0, l.toString());
          lines++;
          if (((String) l.get("unit")).endsWith(" once")) once++;
        }
      }
    }
    // 5 scenarios x 2, each some 10 vendors' bills of 3 to 7 lines (the GPUs are pinned), and the mixed plans
    assertTrue(plans > 80 && lines > 400 && mixed >= 4 && once > 10,
        plans + " plans, " + lines + " lines, " + mixed + " mixed, " + once + " one-time lines");
  }

  /**
   * The CSV a buyer hands finance: on every row of every plan, quantity x unit_price is per_month to
   * the cent, and the row shows the JSON line's own quantity, unit price and unit.
   */
  @Test
  @SuppressWarnings("unchecked")
  void every_csv_row_multiplies_out_to_its_per_month_with_the_jsons_figures() throws Exception {
    int rows = 0, hourly = 0;
    for (var e : RANKED.entrySet()) {
      List<CSVRecord> records = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
          .parse(new java.io.StringReader(RankingCsv.render(e.getValue()))).getRecords();
      List<Map<String, Object>> plans = (List<Map<String, Object>>) RANKINGS.get(e.getKey()).get("plans");
      List<Map<String, Object>> lines = new ArrayList<>();
      for (Map<String, Object> p : plans) lines.addAll((List<Map<String, Object>>) ((Map<String, Object>) p.get("bill")).get("lines"));
      // then the mixed plan's lines, each under the vendor it is bought from
      Map<String, Object> mixed = (Map<String, Object>) RANKINGS.get(e.getKey()).get("mixed");
      if (mixed != null) lines.addAll((List<Map<String, Object>>) ((Map<String, Object>) mixed.get("bill")).get("lines"));
      assertEquals(lines.size(), records.size(), e.getKey());
      for (int i = 0; i < records.size(); i++) {
        CSVRecord row = records.get(i);
        String where = e.getKey() + " #" + row.get("rank") + " " + row.get("vendor") + " " + row.get("item");
        BigDecimal product = new BigDecimal(row.get("quantity")).multiply(new BigDecimal(row.get("unit_price")));
        assertEquals(new BigDecimal(row.get("per_month")), product.setScale(2, RoundingMode.HALF_UP),
            where + ": " + row.get("quantity") + " x " + row.get("unit_price"));
        assertEquals(lines.get(i).get("quantity"), row.get("quantity"), where);
        assertEquals(lines.get(i).get("unitPrice"), row.get("unit_price"), where);
        assertEquals(lines.get(i).get("unit"), row.get("unit"), where);
        if (row.get("unit").equals("card-hour")) hourly++;
        rows++;
      }
    }
    assertTrue(rows > 400 && hourly > 100, rows + " rows, " + hourly + " card-hour rows");
  }

  @Test
  void every_rankings_workbook_evaluates_to_its_json_figures() throws Exception {
    int lines = 0;
    for (var e : RANKINGS.entrySet()) {
      Lang lang = e.getKey().startsWith("team-medium") ? Lang.ZH : Lang.EN;
      try (XSSFWorkbook wb = RankingWorkbook.open(RankingXlsx.render(e.getValue(), lang))) {
        lines += RankingWorkbook.assertMatches(e.getValue(), wb, lang);
      }
    }
    assertTrue(lines > 400, lines + " lines");
  }
}
