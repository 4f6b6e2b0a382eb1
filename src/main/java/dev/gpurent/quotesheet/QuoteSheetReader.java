package dev.gpurent.quotesheet;

import static dev.gpurent.quotesheet.SheetValues.currency;
import static dev.gpurent.quotesheet.SheetValues.dateOf;
import static dev.gpurent.quotesheet.SheetValues.headerOf;
import static dev.gpurent.quotesheet.SheetValues.numberOf;
import static dev.gpurent.quotesheet.SheetValues.plain;
import static dev.gpurent.quotesheet.SheetValues.typeCheck;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.UnknownGpuException;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.QuoteIntegrity;
import dev.gpurent.quotesheet.QuoteSheet.Offer;
import dev.gpurent.quotesheet.QuoteSheet.Terms;
import dev.gpurent.quotesheet.SheetLayout.OfferColumn;
import dev.gpurent.text.Message;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Checks a filled quote sheet cell by cell and reads it into a {@link QuoteSheet}. Every problem is
 * collected (not only the first) with its sheet, row and column, and the sheet is refused whole
 * when there is any: a quote is imported as the vendor wrote it, or not at all.
 *
 * <p>Input: an .xlsx workbook holding an offers sheet and a terms sheet (named in English or
 * Chinese), or the offers sheet as CSV with the terms sheet as a second, optional CSV. At most
 * {@link #MAX_BYTES} per file, and at most {@link SheetLimits}' rows, columns, cells and texts,
 * counted while the file is streamed (a refusal names the limit). Formulas are refused, not
 * evaluated: the numbers a vendor quotes are the ones typed in.
 */
public final class QuoteSheetReader {

  /** The largest quote sheet file accepted: a sheet of thousands of offers is a few hundred KB. */
  public static final int MAX_BYTES = 5 * 1024 * 1024;

  private static final Pattern MEMORY_SUFFIX = Pattern.compile("(?i)^(.*\\d)\\s*G$");

  /**
   * A file as received: its name (for its type and for messages), its bytes, and its size (a file
   * over {@link #MAX_BYTES} is refused from its size alone, without being read).
   */
  public record Upload(String name, byte[] bytes, long size) {
    public Upload(String name, byte[] bytes) {
      this(name, bytes, bytes.length);
    }

    /** A file too large to read, known by its size. */
    public static Upload tooLarge(String name, long size) {
      return new Upload(name, new byte[0], size);
    }
  }

  private final GpuCatalog catalog;
  private final Clock clock;
  private final List<CellProblem> problems = new ArrayList<>();
  /** What the sender is asked though the sheet reads: a card name that several cards answer to. */
  private final List<CellProblem> asks = new ArrayList<>();

  private QuoteSheetReader(GpuCatalog catalog, Clock clock) {
    this.catalog = catalog;
    this.clock = clock;
  }

  /**
   * Reads {@code files}: one .xlsx workbook, or an offers CSV and optionally a terms CSV (in that
   * order). Fails with {@link BadSheetException} naming every problem.
   */
  public static QuoteSheet read(List<Upload> files, GpuCatalog catalog, Clock clock) {
    return new QuoteSheetReader(catalog, clock).readAll(files);
  }

  private QuoteSheet readAll(List<Upload> files) {
    if (files.isEmpty()) throw new BadSheetException(List.of(CellProblem.sheet("file", Message.of("sheet.none"))));
    Grid offers = null;
    Grid terms = null;
    SheetLimits limits = new SheetLimits();
    for (int i = 0; i < files.size(); i++) {
      Upload f = files.get(i);
      String where = "file " + f.name();
      if (f.size() > MAX_BYTES || f.bytes().length > MAX_BYTES) {
        problems.add(CellProblem.sheet(where, Message.of("sheet.tooLarge", "mb", String.format(Locale.ROOT, "%.1f",
            Math.max(f.size(), f.bytes().length) / 1048576.0), "max", MAX_BYTES / 1048576)));
        continue;
      }
      try {
        if (isZip(f.bytes())) {
          if (files.size() > 1) {
            problems.add(CellProblem.sheet(where, Message.of("sheet.workbookAlone")));
            continue;
          }
          List<Grid> sheets = Grid.fromXlsx(f.bytes(), where, name -> SheetLayout.isOffersSheet(name) || SheetLayout.isTermsSheet(name),
              limits);
          offers = sheets.stream().filter(g -> SheetLayout.isOffersSheet(g.name())).findFirst().orElse(null);
          terms = sheets.stream().filter(g -> SheetLayout.isTermsSheet(g.name())).findFirst().orElse(null);
          if (offers == null) {
            problems.add(CellProblem.sheet(where, Message.of("sheet.noOffersSheet", "en", SheetLayout.OFFERS_EN, "zh", SheetLayout.OFFERS_ZH,
                "sheets", sheets.stream().map(Grid::name).collect(Collectors.joining(", ")))));
          }
        } else if (isOle2(f.bytes())) {
          problems.add(CellProblem.sheet(where, Message.of("sheet.xls")));
        } else if (f.name().toLowerCase(Locale.ROOT).endsWith(".csv")) {
          Grid g = Grid.fromCsv(i == 0 ? SheetLayout.OFFERS_EN : SheetLayout.TERMS_EN, f.bytes(), limits);
          if (i == 0) offers = g;
          else terms = g;
        } else {
          problems.add(CellProblem.sheet(where, Message.of("sheet.notXlsx")));
        }
      } catch (SheetLimits.Exceeded e) {
        problems.add(e.problem());
      } catch (IOException e) {
        problems.add(CellProblem.sheet(where, Message.of(isZip(f.bytes()) ? "sheet.unreadableXlsx" : "sheet.unreadableCsv",
            "detail", String.valueOf(e.getMessage()))));
      }
    }
    if (!problems.isEmpty()) throw new BadSheetException(problems);
    List<Offer> offerRows = offers(offers);
    TermsSheetReader termsReader = new TermsSheetReader(problems, clock);
    Terms t = terms == null ? termsReader.emptyTerms() : termsReader.terms(terms);
    if (!problems.isEmpty()) throw new BadSheetException(problems);
    return new QuoteSheet(offerRows, t, List.copyOf(asks));
  }

  private static boolean isZip(byte[] b) {
    return b.length >= 4 && b[0] == 'P' && b[1] == 'K' && b[2] == 3 && b[3] == 4;
  }

  private static boolean isOle2(byte[] b) {
    return b.length >= 8 && (b[0] & 0xff) == 0xD0 && (b[1] & 0xff) == 0xCF && (b[2] & 0xff) == 0x11 && (b[3] & 0xff) == 0xE0;
  }

  // --- offers

  private List<Offer> offers(Grid g) {
    int problemsBefore = problems.size();
    Map<OfferColumn, Integer> cols = new EnumMap<>(OfferColumn.class);
    List<Grid.Value> header = g.rows().isEmpty() ? List.of() : g.rows().get(0);
    for (int c = 0; c < header.size(); c++) {
      Grid.Value v = header.get(c);
      if (v.isBlank()) continue;
      Optional<OfferColumn> col = OfferColumn.byHeader(v.text());
      if (col.isEmpty()) {
        problems.add(CellProblem.cell(g.name(), 0, c, v.text(), Message.of("sheet.column.unknown", "known", Message.of("pick",
            "en", Arrays.stream(OfferColumn.values()).map(x -> x.en).collect(Collectors.joining(", ")),
            "zh", Arrays.stream(OfferColumn.values()).map(x -> x.zh).collect(Collectors.joining("、"))))));
      } else if (cols.putIfAbsent(col.get(), c) != null) {
        problems.add(CellProblem.cell(g.name(), 0, c, v.text(), Message.of("sheet.column.twice", "first",
            Grid.column(cols.get(col.get())))));
      }
    }
    for (OfferColumn c : OfferColumn.values()) {
      if (c.required && !cols.containsKey(c)) {
        problems.add(CellProblem.row(g.name(), 0, Message.of("sheet.column.missing", "en", c.en, "zh", c.zh)));
      }
    }
    if (problems.size() > problemsBefore) return List.of();
    List<Offer> out = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int r = 1; r < g.rows().size(); r++) {
      final int row = r;
      if (g.rows().get(r).stream().allMatch(Grid.Value::isBlank)) continue;
      int before = problems.size();
      for (int c = 0; c < g.rows().get(r).size(); c++) typeCheck(problems, g, r, c, headerOf(g, c));
      if (problems.size() > before) continue;
      Cells cells = new Cells(g, r, cols);
      if (cells.has(OfferColumn.INSTANCE) && SheetLayout.isExampleMarker(cells.text(OfferColumn.INSTANCE))) {
        problems.add(cells.problem(OfferColumn.INSTANCE, Message.of("sheet.exampleRow")));
        continue;
      }
      Gpu gpu = cells.required(OfferColumn.GPU) ? gpu(cells) : null;
      BigDecimal gpus = cells.has(OfferColumn.GPUS) ? cells.number(OfferColumn.GPUS) : BigDecimal.ONE;
      if (gpus != null && (gpus.signum() <= 0 || gpus.compareTo(BigDecimal.valueOf(QuoteIntegrity.MAX_GPUS_PER_OFFER)) > 0)) {
        problems.add(cells.problem(OfferColumn.GPUS, Message.of("sheet.gpus.range", "max", QuoteIntegrity.MAX_GPUS_PER_OFFER,
            "got", gpus.toPlainString())));
        gpus = null;
      }
      BigDecimal vcpus = cells.has(OfferColumn.VCPU) ? nonNegative(cells, OfferColumn.VCPU) : BigDecimal.ZERO;
      BigDecimal ram = cells.has(OfferColumn.RAM) ? nonNegative(cells, OfferColumn.RAM) : BigDecimal.ZERO;
      String region = cells.has(OfferColumn.REGION) ? cells.text(OfferColumn.REGION) : "";
      String country = "";
      if (cells.has(OfferColumn.COUNTRY)) {
        country = cells.text(OfferColumn.COUNTRY).toUpperCase(Locale.ROOT);
        if (!country.matches("[A-Z]{2}")) {
          problems.add(cells.problem(OfferColumn.COUNTRY, Message.of("sheet.country", "got",
              cells.text(OfferColumn.COUNTRY))));
        }
      }
      Billing billing = cells.required(OfferColumn.BILLING) ? billing(cells) : null;
      BigDecimal price = cells.required(OfferColumn.PRICE) ? cells.number(OfferColumn.PRICE) : null;
      if (price != null && price.signum() <= 0) {
        problems.add(cells.problem(OfferColumn.PRICE, price.signum() < 0 ? Message.of("sheet.price.negative", "got", price.toPlainString())
            : Message.of("sheet.price.zero")));
        price = null;
      }
      String currency = cells.required(OfferColumn.CURRENCY) ? currency(cells.text(OfferColumn.CURRENCY),
          why -> problems.add(cells.problem(OfferColumn.CURRENCY, why))) : null;
      PriceUnit unit = billing == null ? null : unit(cells, billing);
      LocalDate validUntil = cells.has(OfferColumn.VALID_UNTIL) ? date(cells, OfferColumn.VALID_UNTIL) : null;
      if (validUntil != null && validUntil.isBefore(Grid.today(clock))) {
        problems.add(cells.problem(OfferColumn.VALID_UNTIL, Message.of("sheet.validUntil.past", "date", validUntil.toString(),
            "today", Grid.today(clock).toString())));
      }
      if (problems.size() > before || gpu == null || gpus == null || billing == null || price == null || unit == null
          || currency == null) {
        continue;
      }
      if (billing == Billing.THREE_YEARS && isTerm(cells)) {
        price = plain(price.divide(BigDecimal.valueOf(3), Math.max(price.scale(), 2) + 4, RoundingMode.HALF_EVEN));
      }
      String instance = cells.has(OfferColumn.INSTANCE) ? cells.text(OfferColumn.INSTANCE) : "";
      String offerId = !instance.isEmpty() ? instance
          : gpus.compareTo(BigDecimal.ONE) == 0 ? gpu.id() : gpu.id() + "-" + gpus.stripTrailingZeros().toPlainString() + "x";
      String key = region + "|" + offerId + "|" + billing.wire();
      Integer first = seen.putIfAbsent(key, row + 1);
      if (first != null) {
        problems.add(CellProblem.row(g.name(), row, region.isEmpty()
            ? Message.of("sheet.offer.twice", "offer", offerId, "billing", billing(billing), "first", first)
            : Message.of("sheet.offer.twiceIn", "offer", offerId, "region", region, "billing", billing(billing), "first", first)));
        continue;
      }
      out.add(new Offer(row + 1, gpu.id(), offerId, gpus, vcpus, ram, region, country, billing, price, unit, currency,
          validUntil));
    }
    if (out.isEmpty() && problems.isEmpty()) problems.add(CellProblem.sheet(g.name(), Message.of("sheet.noOffers")));
    return out;
  }

  private Gpu gpu(Cells cells) {
    String spelled = cells.text(OfferColumn.GPU);
    Optional<Gpu> found = catalog.find(spelled);
    if (found.isEmpty()) {
      // "A100 40G", "A100 80G": the Chinese market's way of writing GB
      Matcher m = MEMORY_SUFFIX.matcher(spelled.trim());
      if (m.matches()) found = catalog.find(m.group(1) + "GB");
    }
    if (found.isPresent()) {
      ambiguous(cells, spelled, found.get());
      return found.get();
    }
    try {
      catalog.resolve(spelled);
    } catch (UnknownGpuException e) {
      problems.add(cells.problem(OfferColumn.GPU, e.nearest().isEmpty() ? Message.of("sheet.gpu.unknown", "spelling", spelled)
          : Message.of("sheet.gpu.unknownNear", "spelling", spelled, "nearest", String.join(", ", e.nearest()))));
    }
    return null;
  }

  /**
   * A name that does not say the card's form (SXM, PCIe, NVL) while the catalog has that card in
   * more than one: read as the card the vendors' data mean by it, and the sender asked which it is.
   */
  private void ambiguous(Cells cells, String spelled, Gpu found) {
    if (FORM.matcher(spelled).find()) return;
    List<Gpu> kin = catalog.all().stream().filter(g -> family(g).equals(family(found))).sorted(java.util.Comparator.comparing(Gpu::id))
        .toList();
    if (kin.size() < 2) return;
    asks.add(cells.problem(OfferColumn.GPU, Message.of("sheet.gpu.ambiguous", "spelling", spelled, "name", found.name(), "id",
        found.id(), "names", Message.of("pick", "en", String.join(" or ", kin.stream().map(Gpu::name).toList()),
            "zh", String.join(" 或 ", kin.stream().map(Gpu::name).toList())))));
  }

  /** Words that name a card's form. */
  private static final Pattern FORM = Pattern.compile("(?i)sxm|pci|nvl|hgx|oam");

  private static final Pattern FORM_WORD = Pattern.compile("(?i)\\b(sxm\\d*|pcie|nvl|hgx|oam)\\b");

  /** A card's name without its form: "NVIDIA A100 40GB SXM" and "NVIDIA A100 40GB PCIe" are one family. */
  private static String family(Gpu g) {
    return FORM_WORD.matcher(g.name()).replaceAll("").replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
  }

  private Billing billing(Cells cells) {
    String t = cells.text(OfferColumn.BILLING);
    String k = SheetLayout.key(t);
    Billing b = switch (k) {
      case "按量", "按量计费", "按量付费", "按需", "按小时", "后付费" -> Billing.ON_DEMAND;
      case "包月", "月付", "按月", "包1个月" -> Billing.MONTHLY;
      case "包年", "年付", "按年", "包1年", "1年" -> Billing.YEARLY;
      case "3年", "三年", "包3年", "包三年", "3year", "3years", "threeyear", "threeyears" -> Billing.THREE_YEARS;
      case "竞价", "竞价实例", "抢占式", "抢占式实例", "spot" -> Billing.SPOT;
      case "monthly", "month", "1month" -> Billing.MONTHLY;
      case "yearly", "year", "1year", "annual", "annually" -> Billing.YEARLY;
      case "ondemand", "payasyougo", "hourly", "postpaid" -> Billing.ON_DEMAND;
      default -> null;
    };
    if (b != null) return b;
    try {
      return Billing.parse(t);
    } catch (IllegalArgumentException e) {
      problems.add(cells.problem(OfferColumn.BILLING, Message.of("sheet.billing.unknown", "got", t)));
      return null;
    }
  }

  /** A billing mode inside a sentence, in the sentence's language ("monthly" / 包月). */
  private static Message billing(Billing b) {
    return Message.of("billing." + b.wire());
  }

  private boolean isTerm(Cells cells) {
    if (!cells.has(OfferColumn.UNIT)) return false;
    String k = SheetLayout.key(cells.text(OfferColumn.UNIT));
    return k.equals("term") || k.equals("整期") || k.equals("total") || k.equals("总价");
  }

  private PriceUnit unit(Cells cells, Billing billing) {
    if (!cells.has(OfferColumn.UNIT)) {
      return switch (billing) {
        case ON_DEMAND, SPOT -> PriceUnit.HOUR;
        case MONTHLY -> PriceUnit.MONTH;
        case YEARLY -> PriceUnit.YEAR;
        default -> {
          problems.add(cells.problem(OfferColumn.UNIT, Message.of("sheet.unit.needed", "billing", billing(billing))));
          yield null;
        }
      };
    }
    String t = cells.text(OfferColumn.UNIT);
    String k = SheetLayout.key(t);
    PriceUnit unit = switch (k) {
      case "hour", "hours", "h", "hr", "小时", "时", "每小时" -> PriceUnit.HOUR;
      case "month", "months", "mo", "月", "每月" -> PriceUnit.MONTH;
      case "year", "years", "yr", "年", "每年" -> PriceUnit.YEAR;
      case "term", "total", "整期", "总价" -> switch (billing) {
        case MONTHLY -> PriceUnit.MONTH;
        case YEARLY, THREE_YEARS -> PriceUnit.YEAR;
        case THREE_MONTHS, SIX_MONTHS -> null;
        default -> null;
      };
      default -> null;
    };
    if (unit == null) {
      problems.add(cells.problem(OfferColumn.UNIT, Message.of("sheet.unit.unknown", "got", t, "billing", billing(billing))));
      return null;
    }
    if ((billing == Billing.ON_DEMAND || billing == Billing.SPOT) && unit != PriceUnit.HOUR) {
      problems.add(cells.problem(OfferColumn.UNIT, Message.of("sheet.unit.hourly", "billing", billing(billing), "unit",
          Message.of("unit." + unit.wire()))));
      return null;
    }
    return unit;
  }

  private BigDecimal nonNegative(Cells cells, OfferColumn c) {
    BigDecimal n = cells.number(c);
    if (n != null && n.signum() < 0) {
      problems.add(cells.problem(c, Message.of("sheet.nonNegative", "got", n.toPlainString())));
      return null;
    }
    return n;
  }

  private LocalDate date(Cells cells, OfferColumn c) {
    return dateOf(cells.value(c), why -> problems.add(cells.problem(c, why)));
  }

  /** One offer row's cells, by column. */
  private final class Cells {
    final Grid g;
    final int row;
    final Map<OfferColumn, Integer> cols;

    Cells(Grid g, int row, Map<OfferColumn, Integer> cols) {
      this.g = g;
      this.row = row;
      this.cols = cols;
    }

    Grid.Value value(OfferColumn c) {
      Integer col = cols.get(c);
      return col == null ? Grid.Value.BLANK : g.cell(row, col);
    }

    boolean has(OfferColumn c) {
      return !value(c).isBlank();
    }

    String text(OfferColumn c) {
      return value(c).text();
    }

    boolean required(OfferColumn c) {
      if (has(c)) return true;
      problems.add(problem(c, Message.of("sheet.required")));
      return false;
    }

    BigDecimal number(OfferColumn c) {
      return numberOf(value(c), why -> problems.add(problem(c, why)));
    }

    CellProblem problem(OfferColumn c, Message reason) {
      Integer col = cols.get(c);
      return col == null ? CellProblem.row(g.name(), row, Message.of("sheet.inColumn", "column", Message.of("pick", "en", c.en, "zh", c.zh),
          "reason", reason))
          : CellProblem.cell(g.name(), row, col, g.cell(0, col).text(), reason);
    }
  }
}
