package dev.gpurent.report;

import dev.gpurent.cost.Placement;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.VendorPlan;
import dev.gpurent.quote.Quote;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a ranking may list one upstream machine twice as if it were two vendors' offers: a
 * reseller's winning offer beside the upstream cloud's own (primeintellect's
 * {@code datacrunch__1xH100_80GB__30__120} and verda's {@code 1H100.80S.30V}), or two resellers'
 * offers from one upstream.
 *
 * <p>Two plans' placements of one workload are flagged when they rent the same card with as many
 * GPUs per instance and one's upstream names the other vendor, or both name the same upstream.
 * Names are compared by their letters and digits: an upstream names a vendor when it is the
 * vendor's id, starts with it ("lambdalabs" and lambda), or is part of its display name
 * ("data-crunch" and "Verda (formerly DataCrunch)"). Regions are named differently by each seller,
 * so this is a flag for the reader ("may be one machine"), not a proof.
 */
public final class ResoldOffers {

  private ResoldOffers() {}

  /**
   * One flagged pair: {@code rank}'s placement is resold from {@code upstream}, and {@code otherRank}'s
   * placement of the same workload is that upstream's own offer ({@code direct}) or resold from it too.
   * Ranks are 1-based, as printed.
   */
  public record Overlap(String workload, int rank, String vendor, String offer, String upstream, int otherRank,
                        String otherVendor, String otherOffer, boolean direct) {

    /** "inference: datacrunch__1x... is resold from datacrunch; #1 verda sells it directly (1H100.80S.30V): ..." */
    public dev.gpurent.text.Message text() {
      return dev.gpurent.text.Message.of(direct ? "resold.direct" : "resold.too", "workload", workload, "offer", offer,
          "upstream", upstream, "otherRank", otherRank, "otherVendor", otherVendor, "otherOffer", otherOffer);
    }
  }

  /** Every flagged pair, in rank order; for two resellers, under the later-ranked one. */
  public static List<Overlap> find(Ranking r) {
    List<Overlap> out = new ArrayList<>();
    List<VendorPlan> plans = r.plans();
    for (int a = 0; a < plans.size(); a++) {
      for (Placement pa : plans.get(a).placements()) {
        Quote qa = pa.quote();
        if (qa.upstream().isEmpty()) continue;
        for (int b = 0; b < plans.size(); b++) {
          if (b == a) continue;
          VendorPlan other = plans.get(b);
          for (Placement pb : other.placements()) {
            Quote qb = pb.quote();
            if (!pb.workload().name().equals(pa.workload().name()) || !qb.gpuId().equals(qa.gpuId())
                || qb.gpuCount() != qa.gpuCount()) {
              continue;
            }
            boolean direct = qb.upstream().isEmpty() && names(qa.upstream(), other.vendor(), other.displayName());
            boolean both = !qb.upstream().isEmpty() && key(qb.upstream()).equals(key(qa.upstream())) && a > b;
            if (direct || both) {
              out.add(new Overlap(pa.workload().name(), a + 1, plans.get(a).vendor(), qa.offerId(), qa.upstream(), b + 1,
                  other.vendor(), qb.offerId(), direct));
            }
          }
        }
      }
    }
    return out;
  }

  /** Whether a reseller's upstream name is this vendor. */
  static boolean names(String upstream, String vendor, String displayName) {
    String u = key(upstream);
    String v = key(vendor);
    if (u.isEmpty()) return false;
    return u.equals(v) || (v.length() >= 4 && u.startsWith(v)) || (u.length() >= 4 && key(displayName).contains(u));
  }

  private static String key(String name) {
    StringBuilder sb = new StringBuilder();
    for (char c : name.toLowerCase(Locale.ROOT).toCharArray()) {
      if (Character.isLetterOrDigit(c)) sb.append(c);
    }
    return sb.toString();
  }
}
