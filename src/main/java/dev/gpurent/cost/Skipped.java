package dev.gpurent.cost;

import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An offer the engine left out because its source says it cannot be rented now, where it would
 * have been picked: for one workload it costs less than what its vendor's plan uses instead (or
 * nothing else at that vendor can carry the workload). Shown so that a buyer sees the cheaper
 * offer exists and why it is not on the bill.
 *
 * @param workload  the workload it would have carried
 * @param quote     the offer; its {@link Quote#stock()} says, in the source's words, why it is left out
 * @param perMonth  what it would have cost a month for that workload, to the cent
 * @param instead   what the vendor's own pick for the workload costs a month; empty when nothing else there can carry it
 * @param planWith  the vendor's whole monthly bill had it been picked (with every offer skipped at that
 *                  vendor); empty when even then the vendor could not carry the scenario
 * @param planWithComplete whether that bill would have been complete
 * @param wouldLead whether that bill would have been #1
 */
public record Skipped(String workload, Quote quote, Money perMonth, Optional<Money> instead, Optional<Money> planWith,
                      boolean planWithComplete, boolean wouldLead) {

  Skipped withLead(boolean lead) {
    return new Skipped(workload, quote, perMonth, instead, planWith, planWithComplete, lead);
  }

  /** Why it is left out: "not rentable now (rentable: false)". */
  public Message reason() {
    return Words.stock(quote.stock());
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("vendor", quote.vendor());
    m.put("workload", workload);
    m.put("region", quote.region());
    m.put("offer", quote.offerId());
    m.put("gpu", quote.gpuId());
    m.put("billing", quote.billing().wire());
    m.put("perMonth", perMonth.plain());
    m.put("instead", instead.map(Money::plain).orElse(null));
    m.put("planWith", planWith.map(Money::plain).orElse(null));
    m.put("wouldLead", wouldLead);
    m.put("stock", quote.stock().toMap());
    m.put("reason", Localizer.neutral(reason()));
    m.put("source", quote.source());
    return m;
  }
}
