package dev.gpurent.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.report.RankingWorkbook;
import dev.gpurent.report.RankingXlsx;
import dev.gpurent.text.Lang;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bill line's units times its unit price rounds to its cent, where it is hardest: an average
 * price over egress bands and one-time lines spread over a horizon, at amounts of exactly half a
 * cent. The workbook's formulas (quantity x unit price) rest on it.
 */
class LineUnitsTest {

  @TempDir
  Path tmp;

  @Test
  void tiered_egress_and_spread_migrations_round_to_the_lines_cent() throws Exception {
    // the guide's sheet with AWS-like bands: 100 GB free, then 0.085 a GB (103 GB: 0.255, half a cent)
    String yaml = Files.readString(Path.of("adapters/guide-reference.yaml"))
        .replace("  egressPerGb: 0.8 ", "  egressTiers: [{upToGb: 100, perGb: 0}, {upToGb: 1000, perGb: 0.085}, {perGb: 0.0333}]\n  #");
    Path sheet = Files.writeString(tmp.resolve("guide-reference.yaml"), yaml);
    QuoteBook book = Fixtures.book(Fixtures.sheet(sheet));
    CostModel model = new CostModel(Fixtures.CATALOG, Fixtures.RULES);
    @SuppressWarnings("unchecked")
    Map<String, Object> template = (Map<String, Object>) YamlFiles.load(Path.of("config/scenarios/guide-template.yaml"));
    int tiered = 0, spread = 0;
    for (int gb = 101; gb <= 1400; gb += 7) {
      Map<String, Object> yamlScenario = new LinkedHashMap<>(template);
      yamlScenario.put("egressGbPerMonth", gb);
      yamlScenario.put("horizonMonths", 1 + gb % 11);
      yamlScenario.put("migration", Map.of("gb", gb + 0.5, "sourceEgressPerGb", 0.0731));
      Scenario s = new ScenarioReader(Fixtures.CATALOG).read(yamlScenario);
      Ranking r = model.rank(s.withConstraints(s.constraints().withIncludeReference(true)), book);
      VendorPlan plan = r.plans().get(0);
      for (LineItem l : plan.bill().lines()) {
        assertEquals(l.perMonth().amount(), l.unitPrice().amount().multiply(l.quantity()).setScale(2, RoundingMode.HALF_UP),
            gb + " GB, " + l.item() + ": " + l.unitPrice().amount() + " x " + l.quantity());
        if (dev.gpurent.text.Localizer.en(l.note()).startsWith("tiered")) tiered++;
        if (l.unit().endsWith(" once")) spread++;
      }
      try (XSSFWorkbook wb = RankingWorkbook.open(RankingXlsx.render(r.toMap(), Lang.EN))) {
        RankingWorkbook.assertMatches(r.toMap(), wb);
      }
    }
    assertTrue(tiered > 150 && spread > 150, tiered + " tiered, " + spread + " spread");
  }
}
