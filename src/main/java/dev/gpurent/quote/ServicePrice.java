package dev.gpurent.quote;

import dev.gpurent.config.WireNames;
import java.util.Locale;
import java.util.Objects;

/**
 * What a vendor says about one service besides GPUs (object storage, egress, ingress, a load
 * balancer): a price, "not sold", or "we do not know". A service that is not sold or whose price
 * is unknown is never billed as free: the engine takes it from a named fallback provider and
 * marks the plan incomplete.
 *
 * @param availability whether the vendor sells it at a known price
 * @param price        the price when {@link Availability#PRICED}, else null
 * @param source       where this figure (or its absence) is stated; may be "" when the terms' source covers it
 * @param typical      true for a typical or estimated figure (a vendor file's {@code {price: 0.15, typical: true}}):
 *                     billed, but not the vendor's stated price, so a plan that uses it is not complete
 */
public record ServicePrice(Availability availability, Money price, String source, boolean typical) {

  /** Whether a service can be bought from the vendor at a known price. */
  public enum Availability {
    PRICED("price"), NOT_SOLD("none"), UNKNOWN("unknown");

    private final String wire;

    Availability(String wire) {
      this.wire = wire;
    }

    /** The word in a vendor YAML and in JSON: price, none, unknown. */
    public String wire() {
      return wire;
    }

    public static Availability parse(String s) {
      Availability a = WireNames.find(values(), Availability::wire, s.trim().toLowerCase(Locale.ROOT));
      if (a == null) throw new IllegalArgumentException("'" + s + "' is not price, none or unknown");
      return a;
    }
  }

  /** The services a bill may need besides GPUs, with their key in vendor YAML terms and in {@code fallbacks:}. */
  public enum Service {
    OBJECT_STORAGE("object storage"),
    EGRESS("public bandwidth"),
    INGRESS("ingress"),
    LOAD_BALANCER("load balancer");

    private final String label;

    Service(String label) {
      this.label = label;
    }

    /** objectStorage, egress, ingress, loadBalancer. */
    public String key() {
      return WireNames.camel(this);
    }

    /** The bill's item name for this service. */
    public String label() {
      return label;
    }
  }

  public ServicePrice {
    Objects.requireNonNull(availability, "availability");
    if ((availability == Availability.PRICED) != (price != null)) {
      throw new IllegalArgumentException("a price goes with availability 'price' and only with it");
    }
    if (price != null && price.amount().signum() < 0) throw new IllegalArgumentException("a price must be >= 0");
    source = source == null ? "" : source;
    if (typical && availability != Availability.PRICED) throw new IllegalArgumentException("only a price can be typical");
  }

  public ServicePrice(Availability availability, Money price, String source) {
    this(availability, price, source, false);
  }

  /** A typical or estimated figure: what the service usually costs there, not a price the vendor states. */
  public static ServicePrice typical(Money price, String source) {
    return new ServicePrice(Availability.PRICED, price, source, true);
  }

  public static ServicePrice priced(Money price, String source) {
    return new ServicePrice(Availability.PRICED, price, source);
  }

  public static ServicePrice notSold(String source) {
    return new ServicePrice(Availability.NOT_SOLD, null, source);
  }

  public static ServicePrice unknown(String source) {
    return new ServicePrice(Availability.UNKNOWN, null, source);
  }

  public boolean isPriced() {
    return availability == Availability.PRICED;
  }

  /** Whether this is the vendor's own stated price: priced, and not a typical figure. */
  public boolean isStated() {
    return isPriced() && !typical;
  }

  /** Why this service cannot be bought from the vendor, for a plan's gap: "not sold" or "price unknown". */
  public String gapReason() {
    return switch (availability) {
      case PRICED -> "";
      case NOT_SOLD -> "not sold";
      case UNKNOWN -> "price unknown";
    };
  }
}
