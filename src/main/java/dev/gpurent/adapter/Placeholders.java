package dev.gpurent.adapter;

import dev.gpurent.quote.Billing;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;

/**
 * Prices a vendor's own feed writes for what it does not sell: one rule per vendor, shared by
 * every reader of that vendor's prices (its own adapter, and the market observations that copy
 * its API), so that a placeholder refused in one is never a price in the other.
 *
 * <p>RunPod's gpuTypes fill the price of a cloud that does not sell a card: in the recorded
 * payload 27 such prices, most of them exactly 0.50 USD per GPU-hour (MI300X, B200, RTX 2000 Ada
 * and RTX PRO 6000 community prices with {@code communityCloud} false; RTX 4070 Ti, 4080 and A2000
 * secure prices with {@code secureCloud} false). Where the cloud's flag is given, a price of a
 * cloud that is not offered is refused. Where it is not (the observations tracker writes RunPod's
 * community price as region "any", flag or no flag), an on-demand price of exactly
 * {@link #RUNPOD_PLACEHOLDER} is refused: no card RunPod sells is priced 0.50 on demand in the
 * recording, and the placeholder MI300X at 0.50 would otherwise take #1 at a quarter of its real
 * price. Spot prices are not judged by value: RunPod's spot prices have no placeholder (a cloud
 * that is not offered has none) and a real one can be 0.50 (L40 secure spot).
 */
final class Placeholders {

  /** The provider name RunPod's prices go by (the observations' {@code provider} column). */
  static final String RUNPOD = "runpod";
  /** The price RunPod writes for most clouds it does not offer a card in, USD per GPU-hour. */
  static final BigDecimal RUNPOD_PLACEHOLDER = new BigDecimal("0.5");
  /** What every RunPod placeholder refusal says, for status pages and tests to find them by. */
  static final String RUNPOD_WORDS = "RunPod's placeholder for a cloud that does not sell the card, not a price";

  private Placeholders() {}

  /**
   * Why a RunPod price is no offer, or empty when it is one.
   *
   * @param field      the price as its source names it ("communityPrice", "price_median_usd")
   * @param flag       the cloud's flag as the source names it ("communityCloud"), or null when the source has none
   * @param offered    the flag's value; null when the source does not say
   * @param perGpuHour the price, USD per GPU-hour
   */
  static Optional<String> runPod(String field, String flag, Boolean offered, Billing billing, BigDecimal perGpuHour) {
    String price = field + " " + perGpuHour.toPlainString();
    if (flag != null && !Boolean.TRUE.equals(offered)) {
      return Optional.of(price + " not offered: " + flag + " is " + offered + " (" + RUNPOD_WORDS + ")");
    }
    if (offered == null && billing == Billing.ON_DEMAND && perGpuHour.compareTo(RUNPOD_PLACEHOLDER) == 0) {
      return Optional.of(price + " USD per GPU-hour on demand, the figure of " + RUNPOD_WORDS);
    }
    return Optional.empty();
  }

  /** Whether a provider's prices are RunPod's (the observations spell it in any case). */
  static boolean isRunPod(String provider) {
    return provider != null && provider.trim().toLowerCase(Locale.ROOT).equals(RUNPOD);
  }
}
