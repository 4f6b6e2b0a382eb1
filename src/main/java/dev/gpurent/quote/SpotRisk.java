package dev.gpurent.quote;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How likely a spot instance is to be taken back, per (region, instance type): AWS's Spot
 * Instance Advisor figures (read by {@code dev.gpurent.adapter.AwsSpotAdvisorAdapter}). Not a
 * price: the saving is relative to the on-demand price and the interruption frequency is a band
 * ("&lt;5%", "5-10%", ... "&gt;20%" of instances interrupted in the last month).
 *
 * <p>Each band carries a single probability, the band's mid-point (see {@link #midpoint(String)}):
 * {@code <5% -> 0.025}, {@code 5-10% -> 0.075}, {@code 10-15% -> 0.125}, {@code 15-20% -> 0.175},
 * and the open band {@code >20% -> 0.25} (read as if it were 20-30%). Immutable and thread-safe.
 */
public final class SpotRisk {

  /**
   * The advisor's figures for one instance type in one region.
   *
   * @param region                  region code, e.g. {@code us-east-1}
   * @param instanceType            e.g. {@code g4dn.xlarge}
   * @param savingPercent           saving over on-demand in percent ({@code s}), e.g. 64
   * @param rangeIndex              the advisor's band index ({@code r})
   * @param label                   the band as AWS labels it, e.g. "15-20%"
   * @param interruptionProbability the band's mid-point as a fraction, e.g. 0.175
   */
  public record Band(String region, String instanceType, int savingPercent, int rangeIndex, String label,
                     double interruptionProbability) {

    public Band {
      Objects.requireNonNull(region, "region");
      Objects.requireNonNull(instanceType, "instanceType");
      Objects.requireNonNull(label, "label");
    }
  }

  private static final Pattern BELOW = Pattern.compile("<\\s*(\\d+(?:\\.\\d+)?)\\s*%");
  private static final Pattern BETWEEN = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*%?\\s*-\\s*(\\d+(?:\\.\\d+)?)\\s*%");
  private static final Pattern ABOVE = Pattern.compile(">\\s*(\\d+(?:\\.\\d+)?)\\s*%");
  /** Width (percentage points) given to the open top band: "&gt;20%" is read as 20-30%. */
  private static final BigDecimal OPEN_BAND_HALF_WIDTH = BigDecimal.valueOf(5);

  private final Map<String, Map<String, Band>> byRegion;
  private final List<String> rejected;
  private final Instant fetchedAt;
  private final String source;

  /**
   * @param bands     region -> instance type -> band
   * @param rejected  entries the parser refused, each with its reason
   * @param fetchedAt when the feed was read
   * @param source    URL or file it came from
   */
  public SpotRisk(Map<String, Map<String, Band>> bands, List<String> rejected, Instant fetchedAt, String source) {
    Map<String, Map<String, Band>> copy = new LinkedHashMap<>();
    bands.forEach((region, types) -> copy.put(region, Collections.unmodifiableMap(new LinkedHashMap<>(types))));
    this.byRegion = Collections.unmodifiableMap(copy);
    this.rejected = List.copyOf(rejected);
    this.fetchedAt = Objects.requireNonNull(fetchedAt, "fetchedAt");
    this.source = source == null ? "" : source;
  }

  /** Whether {@code other} holds the same bands and refusals from the same source, whenever each was read. */
  public boolean sameBands(SpotRisk other) {
    return other != null && byRegion.equals(other.byRegion) && rejected.equals(other.rejected) && source.equals(other.source);
  }

  /** The advisor's band for an instance type in a region; empty when the advisor has none. */
  public Optional<Band> of(String region, String instanceType) {
    Map<String, Band> types = region == null ? null : byRegion.get(region);
    return types == null || instanceType == null ? Optional.empty() : Optional.ofNullable(types.get(instanceType));
  }

  /** Regions with at least one band, in feed order. */
  public Set<String> regions() {
    return byRegion.keySet();
  }

  /** Bands in one region (instance type -> band); empty for an unknown region. */
  public Map<String, Band> bands(String region) {
    return byRegion.getOrDefault(region, Map.of());
  }

  /** Number of (region, instance type) bands. */
  public int size() {
    return byRegion.values().stream().mapToInt(Map::size).sum();
  }

  public List<String> rejected() {
    return rejected;
  }

  public Instant fetchedAt() {
    return fetchedAt;
  }

  public String source() {
    return source;
  }

  /**
   * The mid-point probability of an interruption band label: "&lt;X%" gives X/2, "A-B%" gives
   * (A+B)/2 and the open "&gt;X%" gives X+5 (as if the band were X to X+10), all as fractions:
   * "&lt;5%" = 0.025, "5-10%" = 0.075, "&gt;20%" = 0.25.
   *
   * @throws IllegalArgumentException for a label of another form
   */
  public static double midpoint(String label) {
    String l = label == null ? "" : label.trim();
    BigDecimal percent;
    Matcher m;
    if ((m = BELOW.matcher(l)).matches()) {
      percent = new BigDecimal(m.group(1)).divide(BigDecimal.valueOf(2));
    } else if ((m = BETWEEN.matcher(l)).matches()) {
      percent = new BigDecimal(m.group(1)).add(new BigDecimal(m.group(2))).divide(BigDecimal.valueOf(2));
    } else if ((m = ABOVE.matcher(l)).matches()) {
      percent = new BigDecimal(m.group(1)).add(OPEN_BAND_HALF_WIDTH);
    } else {
      throw new IllegalArgumentException("interruption band '" + label + "' is not of the form <X%, A-B% or >X%");
    }
    return percent.divide(BigDecimal.valueOf(100), 6, RoundingMode.HALF_UP).doubleValue();
  }
}
