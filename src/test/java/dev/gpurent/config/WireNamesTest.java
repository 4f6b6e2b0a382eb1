package dev.gpurent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpurent.alert.AlertRule;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.ServicePrice;
import dev.gpurent.text.Lang;
import org.junit.jupiter.api.Test;

/** One helper names and reads back every enum's wire names: the names the YAML, JSON and README use. */
class WireNamesTest {

  @Test
  void a_constant_is_named_in_camel_case() {
    assertEquals("totalMovedPercent", WireNames.camel(AlertRule.Kind.TOTAL_MOVED_PERCENT));
    assertEquals("objectStorage", ServicePrice.Service.OBJECT_STORAGE.key());
    assertEquals("loadBalancer", ServicePrice.Service.LOAD_BALANCER.key());
    assertEquals("zh", Lang.ZH.tag());
  }

  @Test
  void a_name_is_read_back_exactly_or_not_at_all() {
    assertEquals(Billing.THREE_YEARS, WireNames.find(Billing.values(), Billing::wire, "3-year"));
    assertNull(WireNames.find(Billing.values(), Billing::wire, "3-years"));  // Billing.parse's aliases are its own
    assertEquals(Billing.THREE_YEARS, Billing.parse("3-years"));
    assertEquals("on-demand, spot, monthly, 3-month, 6-month, yearly, 3-year", WireNames.known(Billing.values(), Billing::wire));
  }
}
