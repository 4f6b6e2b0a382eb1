package dev.gpurent.alert;

import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.text.Lang;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The alert rules of a live scenario and the language of their texts, read strictly from the
 * registration body's two extra top-level fields, {@code alerts} and {@code lang} (the scenario
 * itself is read without them by {@code cost.ScenarioReader}). Every bad field is named with its
 * path ({@code alerts[1].to.url}) and its range, all at once, as the scenario reader does.
 *
 * @param name  the scenario's {@code name} (what alert texts call it)
 */
public record AlertRules(Lang lang, String name, List<AlertRule> rules) {

  /** Rules one scenario may carry. */
  public static final int MAX_RULES = 20;
  static final BigDecimal MAX_PERCENT = BigDecimal.valueOf(1000);
  static final BigDecimal MAX_AMOUNT = new BigDecimal("1e12");
  static final int MAX_URL = 2048, MAX_SECRET = 256, MAX_NAME = 256, SHOWN = 40;
  private static final Pattern VENDOR = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

  public AlertRules {
    rules = List.copyOf(rules);
  }

  /**
   * Reads {@code lang} (en or zh, default en) and {@code alerts} (default none) of a registration
   * body (nested maps and lists); other fields are the scenario's and are not looked at here.
   *
   * @param hosts where webhooks may go: a URL whose host is refused as written is a bad field
   * @throws InvalidInputException naming every bad field
   */
  public static AlertRules read(Map<String, ?> body, WebhookHosts hosts) {
    List<InvalidInputException.Problem> problems = new ArrayList<>();
    Lang lang = Lang.EN;
    Object rawLang = body.get("lang");
    if (rawLang != null) {
      if (!(rawLang instanceof String s) || !(s.equals("en") || s.equals("zh"))) {
        problems.add(new InvalidInputException.Problem("lang", "must be en or zh, got " + shown(rawLang)));
      } else {
        lang = Lang.of(s);
      }
    }
    Object rawName = body.get("name");
    String name = rawName instanceof String s && !s.isBlank() ? cut(s, MAX_NAME) : "scenario";
    List<AlertRule> rules = new ArrayList<>();
    Object raw = body.get("alerts");
    if (raw != null && !(raw instanceof List)) {
      problems.add(new InvalidInputException.Problem("alerts", "must be a list of rules"));
    } else if (raw instanceof List<?> list) {
      if (list.size() > MAX_RULES) {
        problems.add(new InvalidInputException.Problem("alerts", "at most " + MAX_RULES + " rules, got " + list.size()));
      } else {
        for (int i = 0; i < list.size(); i++) {
          AlertRule r = rule(i, list.get(i), hosts, problems);
          if (r != null) rules.add(r);
        }
      }
    }
    if (!problems.isEmpty()) throw new InvalidInputException(problems);
    return new AlertRules(lang, name, rules);
  }

  private static AlertRule rule(int i, Object raw, WebhookHosts hosts, List<InvalidInputException.Problem> problems) {
    String at = "alerts[" + i + "]";
    Map<String, ?> m = object(at, raw, problems);
    if (m == null) return null;
    unknown(at, m, Set.of("when", "percent", "amount", "vendor", "to"), problems);
    int before = problems.size();
    AlertRule.Kind kind = null;
    Object when = m.get("when");
    if (when == null) {
      problems.add(new InvalidInputException.Problem(at + ".when", "is required; one of " + kinds()));
    } else if (!(when instanceof String w) || (kind = AlertRule.Kind.parse(w)) == null) {
      problems.add(new InvalidInputException.Problem(at + ".when", "must be one of " + kinds() + ", got " + shown(when)));
    }
    Optional<BigDecimal> percent = only(at, m, "percent", kind, AlertRule.Kind.TOTAL_MOVED_PERCENT, problems)
        .flatMap(v -> number(at + ".percent", v, MAX_PERCENT, problems));
    Optional<BigDecimal> amount = only(at, m, "amount", kind, AlertRule.Kind.TOTAL_BELOW, problems)
        .flatMap(v -> number(at + ".amount", v, MAX_AMOUNT, problems));
    Optional<String> vendor = only(at, m, "vendor", kind, null, problems).flatMap(v -> vendor(at + ".vendor", v, problems));
    AlertRule.Target to = target(at + ".to", m.get("to"), hosts, problems);
    return problems.size() > before ? null : new AlertRule(i, kind, percent, amount, vendor, to);
  }

  /**
   * A field that belongs to one kind of rule ({@code vendor}: the two vendor kinds): required
   * there, refused elsewhere.
   */
  private static Optional<Object> only(String at, Map<String, ?> m, String field, AlertRule.Kind kind, AlertRule.Kind owner,
                                       List<InvalidInputException.Problem> problems) {
    if (kind == null) return Optional.empty();
    boolean wanted = owner == null ? kind == AlertRule.Kind.VENDOR_DATED || kind == AlertRule.Kind.VENDOR_UNAVAILABLE : kind == owner;
    String owners = owner == null ? "vendorDated and vendorUnavailable" : owner.wire();
    Object v = m.get(field);
    if (wanted && v == null) problems.add(new InvalidInputException.Problem(at + "." + field, "is required for " + kind.wire()));
    if (!wanted && v != null) problems.add(new InvalidInputException.Problem(at + "." + field, "only " + owners + " takes it"));
    return wanted ? Optional.ofNullable(v) : Optional.empty();
  }

  /** A number in (0, max], given as a number or as decimal text. */
  private static Optional<BigDecimal> number(String at, Object v, BigDecimal max, List<InvalidInputException.Problem> problems) {
    BigDecimal d = null;
    try {
      if (v instanceof Number || v instanceof String) d = new BigDecimal(String.valueOf(v).trim());
    } catch (NumberFormatException notANumber) {
      d = null;
    }
    if (d == null) {
      problems.add(new InvalidInputException.Problem(at, "must be a number, got " + shown(v)));
      return Optional.empty();
    }
    if (d.signum() <= 0 || d.compareTo(max) > 0) {
      problems.add(new InvalidInputException.Problem(at, "must be > 0 and at most " + max.toPlainString() + ", got " + shown(v)));
      return Optional.empty();
    }
    return Optional.of(d.stripTrailingZeros());
  }

  private static Optional<String> vendor(String at, Object v, List<InvalidInputException.Problem> problems) {
    if (v instanceof String s && VENDOR.matcher(s).matches()) return Optional.of(s);
    problems.add(new InvalidInputException.Problem(at, "must be a vendor id (lowercase letters, digits, . _ -; at most 64), got "
        + shown(v)));
    return Optional.empty();
  }

  private static AlertRule.Target target(String at, Object raw, WebhookHosts hosts, List<InvalidInputException.Problem> problems) {
    if (raw == null) {
      problems.add(new InvalidInputException.Problem(at, "is required: {type, url, secret?}"));
      return null;
    }
    Map<String, ?> m = object(at, raw, problems);
    if (m == null) return null;
    unknown(at, m, Set.of("type", "url", "secret"), problems);
    Object type = m.get("type");
    Channel channel = type instanceof String t ? Channel.parse(t) : null;
    if (channel == null) {
      problems.add(new InvalidInputException.Problem(at + ".type", (type == null ? "is required" : "unknown, got " + shown(type))
          + "; one of " + Channel.names()));
    }
    String url = url(at + ".url", m.get("url"), hosts, problems);
    Object rawSecret = m.get("secret");
    Optional<String> secret = Optional.empty();
    if (rawSecret != null) {
      if (channel != null && !channel.signs()) {
        problems.add(new InvalidInputException.Problem(at + ".secret", "only feishu and dingtalk sign their messages"));
      } else if (!(rawSecret instanceof String s) || s.isBlank() || s.length() > MAX_SECRET) {
        problems.add(new InvalidInputException.Problem(at + ".secret", "must be text of 1 to " + MAX_SECRET + " characters"));
      } else {
        secret = Optional.of(s);
      }
    }
    return channel == null || url == null ? null : new AlertRule.Target(channel, url, secret);
  }

  /**
   * An absolute http or https URL with a host that may be reached: a webhook reaches nothing else.
   * A refused host gets one neutral reason, without the URL (which the client knows).
   */
  private static String url(String at, Object v, WebhookHosts hosts, List<InvalidInputException.Problem> problems) {
    if (v == null) {
      problems.add(new InvalidInputException.Problem(at, "is required"));
      return null;
    }
    if (!(v instanceof String s) || s.length() > MAX_URL) {
      problems.add(new InvalidInputException.Problem(at, "must be a URL of at most " + MAX_URL + " characters"));
      return null;
    }
    try {
      URI u = new URI(s);
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && u.getHost() != null && u.getRawUserInfo() == null) {
        if (!hosts.refusedAsWritten(u.getHost())) return s;
        problems.add(new InvalidInputException.Problem(at, WebhookHosts.REFUSED));
        return null;
      }
    } catch (URISyntaxException bad) {
      // answered below
    }
    problems.add(new InvalidInputException.Problem(at, "must be an http:// or https:// URL with a host, got " + shown(v)));
    return null;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, ?> object(String at, Object raw, List<InvalidInputException.Problem> problems) {
    if (raw instanceof Map<?, ?> m && m.keySet().stream().allMatch(k -> k instanceof String)) return (Map<String, ?>) m;
    problems.add(new InvalidInputException.Problem(at, "must be an object"));
    return null;
  }

  private static void unknown(String at, Map<String, ?> m, Set<String> known, List<InvalidInputException.Problem> problems) {
    for (String k : new TreeSet<>(m.keySet())) {
      if (!known.contains(k)) {
        problems.add(new InvalidInputException.Problem(at + "." + cut(k, SHOWN), "unknown field; known here: "
            + String.join(", ", new TreeSet<>(known))));
      }
    }
  }

  private static String kinds() {
    List<String> names = new ArrayList<>();
    for (AlertRule.Kind k : AlertRule.Kind.values()) names.add(k.wire());
    return String.join(", ", names);
  }

  /** A refused value as a message repeats it: text cut short and quoted, anything else by its kind. */
  private static String shown(Object v) {
    if (v instanceof String s) return "'" + cut(s, SHOWN) + "'";
    if (v instanceof Number || v instanceof Boolean) return String.valueOf(v);
    return v instanceof Map ? "an object" : v instanceof List ? "a list" : "a " + v.getClass().getSimpleName().toLowerCase(Locale.ROOT);
  }

  private static String cut(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n) + "...";
  }
}
