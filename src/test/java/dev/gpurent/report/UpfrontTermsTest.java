package dev.gpurent.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.adapter.Ec2InstancesInfoFormat;
import dev.gpurent.adapter.Payload;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.LineItem;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.cost.VendorPlan;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;

/**
 * An all-upfront yearly reservation says what is due the day it starts, in every output, with the
 * figure worked by hand from the recorded AWS China file (tsaol/aws-gpu, ec2instances.info form):
 * g5.xlarge (1 x A10G) in cn-northwest-1, {@code yrTerm1Standard.allUpfront} 3.907306 CNY an
 * effective hour, for a workload that takes two of them. The whole year is paid upfront:
 * 2 x 3.907306 x 8760 h = 68456.00 CNY; the bill spreads it at 730 h a month: 1460 card-hours
 * x 3.907306 = 5704.67 a month.
 */
class UpfrontTermsTest {

  static final Path CHINA = Path.of("../shared/data/aws/ec2instances-info/china-regions/tsaol-gpu_instances_raw_cn.2026-01-21.json");

  static VendorQuotes china() {
    VendorDefinition def = VendorDefinition.load(Path.of("adapters/aws-china.yaml"));
    return Ec2InstancesInfoFormat.parse(Payload.of(CHINA), def, Fixtures.CATALOG, Fixtures.AT);
  }

  static Ranking rankAtChina() {
    Map<String, Object> scenario = Map.of("name", "one A10G round the clock", "currency", "CNY", "horizonMonths", 12,
        "regions", Map.of("only", List.of("cn-northwest-1")),
        "workloads", List.of(Map.of("name", "inference", "kind", "inference", "gpu", "a10g", "paramsBillions", 7,
            "peakQps", 1, "secondsPerRequest", 2, "concurrentPerCard", 4)));
    return new CostModel(Fixtures.CATALOG, Fixtures.RULES).rank(new ScenarioReader(Fixtures.CATALOG).read(scenario), Fixtures.book(china()));
  }

  @Test
  void the_recorded_all_upfront_rate_carries_the_years_price_as_its_upfront() {
    Quote q = china().quotes().stream()
        .filter(x -> x.offerId().equals("g5.xlarge") && x.region().equals("cn-northwest-1") && x.billing() == Billing.YEARLY)
        .findFirst().orElseThrow();
    assertEquals(Money.of("3.907306", "CNY"), q.price());
    assertEquals(0, Money.of("34228.00056", "CNY").amount().compareTo(q.upfront().amount()), q.upfront().toString());
    Quote onDemand = china().quotes().stream()
        .filter(x -> x.offerId().equals("g5.xlarge") && x.region().equals("cn-northwest-1") && x.billing() == Billing.ON_DEMAND)
        .findFirst().orElseThrow();
    assertNull(onDemand.upfront(), "on demand asks nothing upfront");
  }

  /** One month of round-the-clock use is 730 h whichever mode bills it: the yearly line and the on-demand price it beat. */
  @Test
  void on_demand_and_the_yearly_commitment_bill_the_same_730_hours() {
    VendorPlan plan = rankAtChina().plans().get(0);
    var modes = plan.placements().get(0).modes();
    var onDemand = modes.stream().filter(m -> m.billing() == Billing.ON_DEMAND).findFirst().orElseThrow();
    var yearly = modes.stream().filter(m -> m.billing() == Billing.YEARLY).findFirst().orElseThrow();
    assertEquals(Money.of("9783.26", "CNY"), onDemand.perMonth().cents(), "2 x 6.70086 x 730 h");
    assertEquals(Money.of("5704.67", "CNY"), yearly.perMonth().cents(), "2 x 3.907306 x 730 h");
    assertEquals("1460", plan.bill().lines().get(0).quantity().toPlainString(), "card-hours of the yearly line: 2 x 730");
  }

  @Test
  void the_bill_json_text_csv_and_workbook_say_what_is_due_upfront() throws Exception {
    Ranking r = rankAtChina();
    VendorPlan plan = r.plans().get(0);
    LineItem gpu = plan.bill().lines().get(0);
    assertEquals(Billing.YEARLY, plan.placements().get(0).billing());
    assertEquals("g5.xlarge", plan.placements().get(0).quote().offerId());
    assertEquals(Money.of("5704.67", "CNY"), gpu.perMonth());
    assertEquals("1460", gpu.quantity().toPlainString());
    // the fewest decimals that still multiply out: 1460 x 3.90731 = 5704.6726 (3.9073 would give 5704.66)
    assertEquals(Money.of("3.90731", "CNY"), gpu.unitPrice());
    assertEquals("card-hour", gpu.unit());
    assertEquals(Money.of("68456.00", "CNY"), gpu.upfront());
    assertEquals(Money.of("68456.00", "CNY"), plan.bill().upfront());
    assertEquals("yearly, 2 card(s) x 730 h a month; 68456.00 CNY paid upfront when each yearly term starts (1 over 12 months), "
        + "spread over the months above", Localizer.en(gpu.note()));

    @SuppressWarnings("unchecked")
    Map<String, Object> bill = (Map<String, Object>) ((List<Map<String, Object>>) r.toMap().get("plans")).get(0).get("bill");
    @SuppressWarnings("unchecked")
    Map<String, Object> line = ((List<Map<String, Object>>) bill.get("lines")).get(0);
    assertEquals("68456.00", line.get("upfront"));
    assertEquals("68456.00", bill.get("upfront"));

    String text = RankingText.render(r, 1);
    assertTrue(text.contains("  due upfront: 68456.00 CNY when the terms start (already spread into the monthly figures above)"), text);
    String csv = RankingCsv.render(r, 1);
    assertTrue(csv.lines().findFirst().orElseThrow().endsWith(",upfront"), csv);
    assertTrue(csv.lines().skip(1).findFirst().orElseThrow().endsWith(",68456.00"), csv);

    try (XSSFWorkbook wb = RankingWorkbook.open(RankingXlsx.render(r.toMap(), Lang.EN))) {
      RankingWorkbook.assertMatches(r.toMap(), wb);
      Sheet sheet = wb.getSheetAt(1);
      assertEquals(68456.00, sheet.getRow(RankingXlsx.FIRST_LINE).getCell(RankingXlsx.UPFRONT).getNumericCellValue());
      int total = RankingXlsx.FIRST_LINE + plan.bill().lines().size();
      assertEquals(68456.00, sheet.getRow(total + 2).getCell(RankingXlsx.UPFRONT).getNumericCellValue(), "the bill's upfront sum");
    }
  }
}
