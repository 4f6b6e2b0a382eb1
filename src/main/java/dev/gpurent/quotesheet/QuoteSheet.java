package dev.gpurent.quotesheet;

import dev.gpurent.quote.Billing;
import dev.gpurent.quote.PriceUnit;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * A quote sheet that passed every check: its offers and its terms, ready to be written as a
 * vendor of kind {@code static}.
 */
public record QuoteSheet(List<Offer> offers, Terms terms, List<CellProblem> asks) {

  /** A sheet with nothing to ask its sender. */
  public QuoteSheet(List<Offer> offers, Terms terms) {
    this(offers, terms, List.of());
  }

  /**
   * One offer row.
   *
   * @param row         the sheet row it came from (1-based, as the spreadsheet shows it)
   * @param gpuId       canonical GPU id
   * @param offerId     the instance type, or the GPU id (with its count when not 1)
   * @param price       per {@code unit}, a 3-year term price already spread per year
   * @param validUntil  the last day the price holds, or null
   */
  public record Offer(int row, String gpuId, String offerId, BigDecimal gpus, BigDecimal vcpus, BigDecimal ramGiB,
                      String region, String country, Billing billing, BigDecimal price, PriceUnit unit, String currency,
                      LocalDate validUntil) {}

  /** One service's term as the sheet states it: a price (0 when the vendor says free), none (not sold) or unknown. */
  public record Service(Status status, BigDecimal price, int row) {
    public enum Status { PRICED, NONE, UNKNOWN }

    static final Service UNKNOWN = new Service(Status.UNKNOWN, null, 0);
  }

  /** One egress tier: per GB up to {@code upToGb} a month (null: no bound, the last tier). */
  public record Tier(BigDecimal upToGb, BigDecimal perGb, int row) {}

  /**
   * The terms sheet.
   *
   * @param currency  the one currency of every price in it, or null when it prices nothing
   * @param egress    one tier (no bound) for a flat price; empty when egress is none or unknown
   * @param bandwidth the bandwidth cap in Mbps: PRICED carries the number
   * @param discount  the negotiated multiplier (0.9 = 10% off), or null
   */
  public record Terms(String vendorName, String currency, Service storage, List<Tier> egress, Service egressStatus,
                      Service ingress, Service loadBalancer, Service migrationIn, Service migrationOut,
                      Service bandwidth, BigDecimal discount, String contact, LocalDate quoteDate) {}
}
