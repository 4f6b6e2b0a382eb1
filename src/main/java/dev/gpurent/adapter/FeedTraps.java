package dev.gpurent.adapter;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rows of an OpenComputePrices file that are no GPU offer at all, whatever their figures
 * (PROVENANCE.md 10a): per-token prices of inference APIs, getdeploying's index summaries, akash's
 * statistics, Azure's Low Priority meters, and prices per something other than an hour.
 */
final class FeedTraps {

  private FeedTraps() {}

  /** How every per-token skip starts: those rows are the token price book's, counted, not listed. */
  static final String TOKEN = "a per-token price of an inference API";

  private static final Pattern STATISTIC = Pattern.compile(".*_(min|max|avg|weightedAverage)$");

  /** Why a row is no offer, or null when it may be one. */
  static String notAnOffer(FeedRow r) {
    if (r.get("pricing_type").equals("inference") || r.get("price_unit").equals("token")) {
      return TOKEN + " (pricing_type " + r.get("pricing_type") + ", price_unit " + r.get("price_unit")
          + "), not a GPU offer: the token price book reads it";
    }
    String type = r.get("instance_type");
    if (type.startsWith("cheapest_")) {
      return "a getdeploying summary row: the cheapest " + r.get("gpu_name") + " on the site's index ("
          + r.extra("cheapest_provider") + ", of " + r.extra("total_providers") + " providers), not an offer";
    }
    Matcher stat = STATISTIC.matcher(type);
    if (!r.extra("price_tier").isEmpty() || stat.matches()) {
      String tier = r.extra("price_tier").isEmpty() ? stat.group(1) : r.extra("price_tier");
      return "an akash statistics row: the " + tier + " price of " + r.get("gpu_name") + " over " + r.extra("total_providers")
          + " providers (" + r.extra("available_providers") + " available), not an offer";
    }
    if (r.get("pricing_type").equals("spot") && r.extra("meter_name").contains("Low Priority")) {
      return "a Low Priority meter ('" + r.extra("meter_name") + "'), filed as spot: Azure's older low-priority VMs, not its Spot "
          + "price, dropped";
    }
    String unit = r.get("price_unit");
    if (!unit.isEmpty() && !unit.equals("hour")) return "price_unit '" + unit + "': the price is not per hour";
    return null;
  }
}
