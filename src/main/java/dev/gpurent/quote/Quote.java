package dev.gpurent.quote;

import java.time.Instant;
import java.util.Objects;

/**
 * One price for one offer in one billing mode, as the vendor published it (its own currency
 * and unit). Instances are immutable; the engine converts on the fly.
 *
 * @param vendor       vendor id (the YAML file's {@code vendor})
 * @param region       vendor region or zone; "" where the vendor has none
 * @param offerId      instance type or SKU
 * @param gpuId        canonical GPU id from the catalog
 * @param gpuCount     GPUs in the offer (fractions exist: shared vGPUs)
 * @param vcpus        vCPUs, or 0 when unknown
 * @param ramGiB       RAM in GiB, or 0 when unknown
 * @param billing      billing mode
 * @param price        price per {@code unit} for the whole offer (all its GPUs)
 * @param unit         period the price covers
 * @param observedAt   when the price was read from its source (the fetch)
 * @param source       adapter kind and URL or file the price came from
 * @param priceDate    the date the source itself states for this price (a publication date, an
 *                     observation day, a file's date, the vendor file's {@code asOf}); null when it
 *                     states none: the quote is undated, since the fetch time is no price's date
 * @param upstream     the cloud a reseller rents this machine from ("lambdalabs"), or ""
 * @param country      ISO 3166 alpha-2 code of the region's country ("US", "CN"), or "" when unknown
 * @param upfront      what an all- or partial-upfront term asks for the whole offer on the day the
 *                     term starts, in the price's currency (its {@code price} already spreads it over
 *                     the term); null when the term asks nothing upfront
 * @param stock        whether the offer can be rented now, as the source states it; {@link Stock#UNKNOWN} when it states nothing
 */
public record Quote(String vendor, String region, String offerId, String gpuId, double gpuCount,
                    double vcpus, double ramGiB, Billing billing, Money price, PriceUnit unit,
                    Instant observedAt, String source, Instant priceDate, String upstream, String country, Money upfront,
                    Stock stock) {

  public Quote {
    Objects.requireNonNull(vendor, "vendor");
    Objects.requireNonNull(offerId, "offerId");
    Objects.requireNonNull(gpuId, "gpuId");
    Objects.requireNonNull(billing, "billing");
    Objects.requireNonNull(price, "price");
    Objects.requireNonNull(unit, "unit");
    region = region == null ? "" : region;
    source = source == null ? "" : source;
    upstream = upstream == null ? "" : upstream;
    country = country == null ? "" : country;
    stock = stock == null ? Stock.UNKNOWN : stock;
  }

  /** A quote whose source states nothing about stock. */
  public Quote(String vendor, String region, String offerId, String gpuId, double gpuCount, double vcpus, double ramGiB,
               Billing billing, Money price, PriceUnit unit, Instant observedAt, String source, Instant priceDate, String upstream,
               String country, Money upfront) {
    this(vendor, region, offerId, gpuId, gpuCount, vcpus, ramGiB, billing, price, unit, observedAt, source, priceDate, upstream,
        country, upfront, Stock.UNKNOWN);
  }

  /** A quote with nothing due upfront. */
  public Quote(String vendor, String region, String offerId, String gpuId, double gpuCount, double vcpus, double ramGiB,
               Billing billing, Money price, PriceUnit unit, Instant observedAt, String source, Instant priceDate, String upstream,
               String country) {
    this(vendor, region, offerId, gpuId, gpuCount, vcpus, ramGiB, billing, price, unit, observedAt, source, priceDate, upstream,
        country, null);
  }

  /** A quote whose source states no date of its own, sold by the vendor itself, linked as the catalog says. */
  public Quote(String vendor, String region, String offerId, String gpuId, double gpuCount, double vcpus, double ramGiB,
               Billing billing, Money price, PriceUnit unit, Instant observedAt, String source) {
    this(vendor, region, offerId, gpuId, gpuCount, vcpus, ramGiB, billing, price, unit, observedAt, source, null, "", "");
  }

  /** Whether the source states no date for this price (a SkyPilot catalog, an instances.json file). */
  public boolean undated() {
    return priceDate == null;
  }

  /** The same quote with the date its source states. */
  public Quote withPriceDate(Instant date) {
    return new Quote(vendor, region, offerId, gpuId, gpuCount, vcpus, ramGiB, billing, price, unit, observedAt, source,
        date, upstream, country, upfront, stock);
  }

  /** The same quote, resold from {@code provider}. */
  public Quote withUpstream(String provider) {
    return new Quote(vendor, region, offerId, gpuId, gpuCount, vcpus, ramGiB, billing, price, unit, observedAt, source,
        priceDate, provider, country, upfront, stock);
  }

  /** The same quote with its region's country. */
  public Quote withCountry(String code) {
    return new Quote(vendor, region, offerId, gpuId, gpuCount, vcpus, ramGiB, billing, price, unit, observedAt, source,
        priceDate, upstream, code, upfront, stock);
  }

  /** The same quote, its term asking {@code amount} upfront. */
  public Quote withUpfront(Money amount) {
    return new Quote(vendor, region, offerId, gpuId, gpuCount, vcpus, ramGiB, billing, price, unit, observedAt, source,
        priceDate, upstream, country, amount, stock);
  }

  /** The same quote with the availability its source states. */
  public Quote withStock(Stock s) {
    return new Quote(vendor, region, offerId, gpuId, gpuCount, vcpus, ramGiB, billing, price, unit, observedAt, source,
        priceDate, upstream, country, upfront, s);
  }

  /** The same quote as observed at another time: what a refresh that found the same offer makes of it. */
  public Quote withObservedAt(Instant at) {
    return new Quote(vendor, region, offerId, gpuId, gpuCount, vcpus, ramGiB, billing, price, unit, at, source,
        priceDate, upstream, country, upfront, stock);
  }

  /** Whether {@code other} is this very offer at this price, whenever each was observed. */
  public boolean sameOffer(Quote other) {
    return this == other || (Objects.equals(observedAt, other.observedAt) ? equals(other) : equals(other.withObservedAt(observedAt)));
  }

  /** Identity of the offer across refreshes: vendor, region, offer and billing mode. */
  public String key() {
    return vendor + '|' + region + '|' + offerId + '|' + billing.wire();
  }
}
