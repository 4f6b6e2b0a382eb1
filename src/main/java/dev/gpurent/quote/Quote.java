package dev.gpurent.quote;

import java.time.Instant;
import java.util.Objects;

/**
 * One price for one offer in one billing mode, as the vendor published it (its own currency
 * and unit). Instances are immutable; the engine converts on the fly.
 *
 * @param vendor     vendor id (the YAML file's {@code vendor})
 * @param region     vendor region or zone; "" where the vendor has none
 * @param offerId    instance type or SKU
 * @param gpuId      canonical GPU id from the catalog
 * @param gpuCount   GPUs in the offer (fractions exist: shared vGPUs)
 * @param vcpus      vCPUs, or 0 when unknown
 * @param ramGiB     RAM in GiB, or 0 when unknown
 * @param billing    billing mode
 * @param price      price per {@code unit} for the whole offer (all its GPUs)
 * @param unit       period the price covers
 * @param observedAt when the price was read from its source
 * @param source     adapter kind and URL or file the price came from
 */
public record Quote(String vendor, String region, String offerId, String gpuId, double gpuCount,
                    double vcpus, double ramGiB, Billing billing, Money price, PriceUnit unit,
                    Instant observedAt, String source) {

  public Quote {
    Objects.requireNonNull(vendor, "vendor");
    Objects.requireNonNull(offerId, "offerId");
    Objects.requireNonNull(gpuId, "gpuId");
    Objects.requireNonNull(billing, "billing");
    Objects.requireNonNull(price, "price");
    Objects.requireNonNull(unit, "unit");
    region = region == null ? "" : region;
    source = source == null ? "" : source;
  }

  /** Identity of the offer across refreshes: vendor, region, offer and billing mode. */
  public String key() {
    return vendor + '|' + region + '|' + offerId + '|' + billing.wire();
  }
}
