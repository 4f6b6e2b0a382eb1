package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static dev.gpurent.Fixtures.book;
import static dev.gpurent.Fixtures.guideReference;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.Money;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The guide's right-sizing case (5.4): four A100 80G at nearly 30,000 become six 4090s at 9,000. */
class AdviceTest {

  private static Fleet fleet() {
    return new FleetReader(CATALOG).read(YamlFiles.load(Path.of("config/scenarios/fleets/sdxl-a100.yaml")));
  }

  @Test
  void recommends_six_4090s_for_the_sdxl_fleet_and_its_saving() {
    Advice a = Advice.advise(fleet(), book(guideReference()), CATALOG, Constraints.NONE.withIncludeReference(true));
    Advice.Option r = a.recommendation().orElseThrow();
    assertEquals("rtx-4090", r.gpu());
    assertEquals(6, r.cards());
    assertEquals("monthly", r.billing());
    assertEquals(Money.of("9000", "CNY"), r.perMonth());
    assertEquals(Money.of("30000", "CNY"), a.current());
    assertEquals(Money.of("21000", "CNY"), a.saving().orElseThrow());
    assertEquals(12.0, r.capacityQps(), 1e-9);
  }

  @Test
  void reads_the_utilization_signals() {
    Advice a = Advice.advise(fleet(), book(guideReference()), CATALOG, Constraints.NONE.withIncludeReference(true));
    assertEquals(List.of(
        "GPU utilization 22% is below 30%: over-provisioned, downsize (guide 5.3)",
        "VRAM utilization 30% is below 50%: the card is too big, a cheaper card will do (guide 5.3)"), dev.gpurent.text.Localizer.ens(a.signals()));
  }

  @Test
  void offers_keeping_the_current_card_right_sized() {
    Advice a = Advice.advise(fleet(), book(guideReference()), CATALOG, Constraints.NONE.withIncludeReference(true));
    Advice.Option keep = a.alternatives().stream().filter(o -> o.vendor().equals("current vendor")).findFirst().orElseThrow();
    assertEquals(3, keep.cards());
    assertEquals(Money.of("22500", "CNY"), keep.perMonth());
  }
}
