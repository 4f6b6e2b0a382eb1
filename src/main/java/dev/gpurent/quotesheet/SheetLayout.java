package dev.gpurent.quotesheet;

import dev.gpurent.text.Lang;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The layout of a quote sheet, in one place: sheet names, the offers sheet's columns and the terms
 * sheet's items, each in English and Chinese. The reader finds columns by their header text (in
 * either language, in any order), so a column added here later (a target price, say) is one more
 * constant, and sheets filled from an older template still read.
 */
public final class SheetLayout {

  private SheetLayout() {}

  /**
   * The language of a template's headers, labels and example values, as a command line or query
   * names it: a language tag ({@link Lang#of}), or English / Chinese spelled out ("english",
   * "chinese", "中文", "cn").
   */
  public static Lang lang(String s) {
    return switch (s.trim().toLowerCase(Locale.ROOT)) {
      case "english" -> Lang.EN;
      case "cn", "chinese", "中文" -> Lang.ZH;
      default -> Lang.of(s);
    };
  }

  static String pick(Lang lang, String en, String zh) {
    return lang == Lang.EN ? en : zh;
  }

  /** The column or item whose English or Chinese name is {@code text}, compared by {@link #key}. */
  private static <E extends Enum<E>> Optional<E> named(E[] values, Function<E, String> en, Function<E, String> zh, String text) {
    String k = key(text);
    return Arrays.stream(values).filter(c -> key(en.apply(c)).equals(k) || key(zh.apply(c)).equals(k)).findFirst();
  }

  public static final String OFFERS_EN = "offers";
  public static final String OFFERS_ZH = "报价";
  public static final String TERMS_EN = "terms";
  public static final String TERMS_ZH = "条款";
  public static final String NOTES_EN = "instructions";
  public static final String NOTES_ZH = "说明";

  /** What a cell must hold. */
  enum Kind { TEXT, NUMBER, MONEY, DATE }

  /** The offers sheet: one row per offer and billing mode. */
  public enum OfferColumn {
    GPU("GPU model", "GPU 型号", Kind.TEXT, true),
    GPUS("GPUs per instance", "每实例 GPU 数", Kind.NUMBER, false),
    VCPU("vCPU", "vCPU 数", Kind.NUMBER, false),
    RAM("RAM (GiB)", "内存 (GiB)", Kind.NUMBER, false),
    REGION("Region", "地域", Kind.TEXT, false),
    COUNTRY("Country (ISO code)", "国家/地区代码", Kind.TEXT, false),
    INSTANCE("Instance type", "实例规格", Kind.TEXT, false),
    BILLING("Billing mode and term", "计费模式", Kind.TEXT, true),
    PRICE("Price", "价格", Kind.MONEY, true),
    UNIT("Price per", "计价单位", Kind.TEXT, false),
    CURRENCY("Currency", "币种", Kind.TEXT, true),
    VALID_UNTIL("Valid until", "有效期至", Kind.DATE, false),
    NOTE("Note", "备注", Kind.TEXT, false),
    /** Filled by {@code quote-sheet template --for}: the price at which this offer takes #1; read back as nothing. */
    TARGET_PRICE("Target price to rank #1", "排名第一的目标价", Kind.MONEY, false);

    final String en;
    final String zh;
    final Kind kind;
    final boolean required;

    OfferColumn(String en, String zh, Kind kind, boolean required) {
      this.en = en;
      this.zh = zh;
      this.kind = kind;
      this.required = required;
    }

    public String header(Lang lang) {
      return pick(lang, en, zh);
    }

    static Optional<OfferColumn> byHeader(String text) {
      return named(values(), c -> c.en, c -> c.zh, text);
    }
  }

  /** The terms sheet's columns: one row per item. */
  public enum TermColumn {
    ITEM("Item", "项目"),
    VALUE("Value", "数值"),
    CURRENCY("Currency", "币种"),
    UP_TO_GB("Up to GB a month (egress tiers)", "阶梯上限 (GB/月，仅出流量)"),
    EXAMPLE("Example", "示例"),
    NOTE("Note", "备注");

    final String en;
    final String zh;

    TermColumn(String en, String zh) {
      this.en = en;
      this.zh = zh;
    }

    public String header(Lang lang) {
      return pick(lang, en, zh);
    }

    static Optional<TermColumn> byHeader(String text) {
      return named(values(), c -> c.en, c -> c.zh, text);
    }
  }

  /** The terms sheet's items. Egress may take several rows, one per tier. */
  public enum TermItem {
    VENDOR_NAME("Vendor name", "厂商名称", Kind.TEXT, "Example Cloud", "示例云"),
    STORAGE("Object storage, per GB-month", "对象存储（每 GB·月）", Kind.MONEY, "0.1", "0.1"),
    EGRESS("Internet egress, per GB", "公网出流量（每 GB）", Kind.MONEY, "0.8", "0.8"),
    INGRESS("Ingress, per GB", "入流量（每 GB）", Kind.MONEY, "0", "0"),
    LOAD_BALANCER("Load balancer, per month", "负载均衡（每月）", Kind.MONEY, "200", "200"),
    MIGRATION_IN("Data migration in, per GB", "数据迁入（每 GB）", Kind.MONEY, "none", "不提供"),
    MIGRATION_OUT("Data migration out, per GB", "数据迁出（每 GB）", Kind.MONEY, "0.5", "0.5"),
    BANDWIDTH("Bandwidth cap, Mbps", "带宽上限（Mbps）", Kind.NUMBER, "1000", "1000"),
    DISCOUNT("Negotiated discount (multiplier: 0.9 = 10% off)", "协议折扣（乘数：0.9 即九折）", Kind.NUMBER, "0.9", "0.9"),
    CONTACT("Contact", "联系人", Kind.TEXT, "Li Lei, sales@example.com", "李雷 sales@example.com"),
    QUOTE_DATE("Quote date", "报价日期", Kind.DATE, "2026-01-15", "2026-01-15");

    final String en;
    final String zh;
    final Kind kind;
    final String exampleEn;
    final String exampleZh;

    TermItem(String en, String zh, Kind kind, String exampleEn, String exampleZh) {
      this.en = en;
      this.zh = zh;
      this.kind = kind;
      this.exampleEn = exampleEn;
      this.exampleZh = exampleZh;
    }

    public String label(Lang lang) {
      return pick(lang, en, zh);
    }

    String example(Lang lang) {
      return pick(lang, exampleEn, exampleZh);
    }

    static Optional<TermItem> byLabel(String text) {
      return named(values(), c -> c.en, c -> c.zh, text);
    }
  }

  /** What the example offer row says in its instance-type cell; a row that still says it is refused. */
  static String exampleMarker(Lang lang) {
    return pick(lang, "EXAMPLE - replace this row", "示例：请替换本行");
  }

  static boolean isExampleMarker(String text) {
    String k = key(text);
    return k.equals(key(exampleMarker(Lang.EN))) || k.equals(key(exampleMarker(Lang.ZH)));
  }

  /** The example offer row, in the order of {@link OfferColumn}. */
  static List<String> exampleOffer(Lang lang, String validUntil) {
    return List.of("RTX 4090", "1", "16", "64", pick(lang, "cn-east", "华东"), "CN", exampleMarker(lang),
        pick(lang, "monthly", "包月"), "1500", pick(lang, "month", "月"), "CNY", validUntil, pick(lang, "example only", "仅为示例"), "");
  }

  /** The billing mode as the sheet spells it in {@code lang}: 按量, 包月, 包年, 3年, 竞价. */
  public static String billingText(Lang lang, dev.gpurent.quote.Billing b) {
    return switch (b) {
      case ON_DEMAND -> pick(lang, "on-demand", "按量");
      case MONTHLY -> pick(lang, "monthly", "包月");
      case YEARLY -> pick(lang, "yearly", "包年");
      case THREE_YEARS -> pick(lang, "3-year", "3年");
      case SPOT -> pick(lang, "spot", "竞价");
      default -> b.wire();
    };
  }

  /** The price unit as the sheet spells it in {@code lang}. */
  public static String unitText(Lang lang, String unit) {
    return switch (unit) {
      case "hour" -> pick(lang, "hour", "小时");
      case "month" -> pick(lang, "month", "月");
      case "year" -> pick(lang, "year", "年");
      default -> unit;
    };
  }

  static String offersSheet(Lang lang) {
    return pick(lang, OFFERS_EN, OFFERS_ZH);
  }

  static String termsSheet(Lang lang) {
    return pick(lang, TERMS_EN, TERMS_ZH);
  }

  static String notesSheet(Lang lang) {
    return pick(lang, NOTES_EN, NOTES_ZH);
  }

  static boolean isOffersSheet(String name) {
    String k = key(name);
    return k.equals(key(OFFERS_EN)) || k.equals(key(OFFERS_ZH));
  }

  static boolean isTermsSheet(String name) {
    String k = key(name);
    return k.equals(key(TERMS_EN)) || k.equals(key(TERMS_ZH));
  }

  /** The instructions sheet's lines. */
  static List<String> notes(Lang lang) {
    return lang == Lang.EN ? List.of(
        "How to fill this quote sheet",
        "offers: one row per offer and billing mode. Row 2 is an example: replace it (a row still marked EXAMPLE is refused).",
        "GPU model: any common spelling (RTX 4090, A100 80GB, H100 SXM). GPUs per instance: defaults to 1.",
        "Billing mode and term: on-demand, monthly, yearly, 3-year or spot (按量, 包月, 包年, 3年, 竞价 also work).",
        "Price per: hour, month, year, or term (the whole term). Empty: hour for on-demand and spot, month for monthly, "
            + "year for yearly; a 3-year price must say which.",
        "Currency: a 3-letter code (CNY, USD). Valid until: the last day the price holds (YYYY-MM-DD).",
        "terms: one value per item, all prices in one currency. Empty: unknown. 'none': not sold. 0: free.",
        "Egress tiers: one row per tier, with its upper bound in GB a month; the last tier has none.",
        "Type values, not formulas: formula cells are refused.")
        : List.of(
        "填写说明",
        "报价：每个报价、每种计费模式一行。第 2 行是示例，请替换（仍标为“示例”的行会被拒绝）。",
        "GPU 型号：常见写法均可（RTX 4090、A100 80GB、H100 SXM）。每实例 GPU 数：默认 1。",
        "计费模式：按量、包月、包年、3年、竞价（也可写 on-demand、monthly、yearly、3-year、spot）。",
        "计价单位：小时、月、年，或 整期（整个合同期的总价）。留空：按量和竞价按小时，包月按月，包年按年；3 年价格须注明单位。",
        "币种：三位代码（CNY、USD）。有效期至：价格有效的最后一天（YYYY-MM-DD）。",
        "条款：每项一个数值，所有价格用同一币种。留空：未知。“不提供”：不出售。0：免费。",
        "出流量阶梯：每个阶梯一行，注明每月 GB 上限；最后一个阶梯不填上限。",
        "请填写数值，不要使用公式：公式单元格会被拒绝。");
  }

  /** Lowercase letters and digits (any script): how headers and labels are compared. */
  static String key(String s) {
    if (s == null) return "";
    StringBuilder b = new StringBuilder();
    for (int cp : s.toLowerCase(Locale.ROOT).codePoints().toArray()) {
      if (Character.isLetterOrDigit(cp)) b.appendCodePoint(cp);
    }
    return b.toString();
  }
}
