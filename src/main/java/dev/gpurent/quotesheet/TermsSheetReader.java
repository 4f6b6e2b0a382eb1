package dev.gpurent.quotesheet;

import static dev.gpurent.quotesheet.SheetValues.currency;
import static dev.gpurent.quotesheet.SheetValues.dateOf;
import static dev.gpurent.quotesheet.SheetValues.headerOf;
import static dev.gpurent.quotesheet.SheetValues.numberOf;
import static dev.gpurent.quotesheet.SheetValues.typeCheck;

import dev.gpurent.quotesheet.QuoteSheet.Service;
import dev.gpurent.quotesheet.QuoteSheet.Terms;
import dev.gpurent.quotesheet.QuoteSheet.Tier;
import dev.gpurent.quotesheet.SheetLayout.TermColumn;
import dev.gpurent.quotesheet.SheetLayout.TermItem;
import dev.gpurent.text.Message;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads a quote sheet's terms sheet (storage, egress tiers, ingress, load balancer, migration,
 * bandwidth, discount, who quoted and when) into {@link Terms}, adding every problem to the
 * reader's list; a sheet without terms reads as every service unknown.
 */
final class TermsSheetReader {

  private static final Pattern ZHE = Pattern.compile("(\\d+(\\.\\d+)?)\\s*折");

  private final List<CellProblem> problems;
  private final Clock clock;

  /** @param problems the reader's list, which this adds to */
  TermsSheetReader(List<CellProblem> problems, Clock clock) {
    this.problems = problems;
    this.clock = clock;
  }

  Terms emptyTerms() {
    return new Terms(null, null, Service.UNKNOWN, List.of(), Service.UNKNOWN, Service.UNKNOWN, Service.UNKNOWN,
        Service.UNKNOWN, Service.UNKNOWN, Service.UNKNOWN, null, null, null);
  }

  Terms terms(Grid g) {
    int problemsBefore = problems.size();
    Map<TermColumn, Integer> cols = new EnumMap<>(TermColumn.class);
    List<Grid.Value> header = g.rows().isEmpty() ? List.of() : g.rows().get(0);
    for (int c = 0; c < header.size(); c++) {
      Grid.Value v = header.get(c);
      if (v.isBlank()) continue;
      Optional<TermColumn> col = TermColumn.byHeader(v.text());
      if (col.isEmpty()) {
        problems.add(CellProblem.cell(g.name(), 0, c, v.text(), Message.of("sheet.column.unknown", "known", Message.of("pick",
            "en", Arrays.stream(TermColumn.values()).map(x -> x.en).collect(Collectors.joining(", ")),
            "zh", Arrays.stream(TermColumn.values()).map(x -> x.zh).collect(Collectors.joining("、"))))));
      } else {
        cols.putIfAbsent(col.get(), c);
      }
    }
    for (TermColumn c : List.of(TermColumn.ITEM, TermColumn.VALUE)) {
      if (!cols.containsKey(c)) problems.add(CellProblem.row(g.name(), 0, Message.of("sheet.column.missing", "en", c.en, "zh", c.zh)));
    }
    if (problems.size() > problemsBefore) return emptyTerms();
    Map<TermItem, Service> services = new EnumMap<>(TermItem.class);
    Map<TermItem, Integer> rows = new EnumMap<>(TermItem.class);
    List<Tier> tiers = new ArrayList<>();
    String currency = null;
    int currencyRow = -1;
    String vendorName = null;
    String contact = null;
    LocalDate quoteDate = null;
    BigDecimal discount = null;
    int itemCol = cols.get(TermColumn.ITEM);
    int valueCol = cols.get(TermColumn.VALUE);
    Integer curCol = cols.get(TermColumn.CURRENCY);
    Integer upToCol = cols.get(TermColumn.UP_TO_GB);
    for (int r = 1; r < g.rows().size(); r++) {
      if (g.rows().get(r).stream().allMatch(Grid.Value::isBlank)) continue;
      int before = problems.size();
      for (int c = 0; c < g.rows().get(r).size(); c++) {
        if (c == (cols.containsKey(TermColumn.EXAMPLE) ? cols.get(TermColumn.EXAMPLE) : -1)) continue;
        typeCheck(problems, g, r, c, headerOf(g, c));
      }
      if (problems.size() > before) continue;
      Grid.Value label = g.cell(r, itemCol);
      Grid.Value value = g.cell(r, valueCol);
      String valueHeader = headerOf(g, valueCol);
      Optional<TermItem> item = label.isBlank() ? Optional.empty() : TermItem.byLabel(label.text());
      if (item.isEmpty()) {
        if (label.isBlank() && value.isBlank()) continue;
        problems.add(CellProblem.cell(g.name(), r, itemCol, headerOf(g, itemCol), label.isBlank() ? Message.of("sheet.term.valueWithoutItem")
            : Message.of("sheet.term.unknown", "got", label.text(), "known", Message.of("pick",
                "en", Arrays.stream(TermItem.values()).map(i -> i.en).collect(Collectors.joining("; ")),
                "zh", Arrays.stream(TermItem.values()).map(i -> i.zh).collect(Collectors.joining("；"))))));
        continue;
      }
      TermItem it = item.get();
      Integer first = rows.putIfAbsent(it, r + 1);
      if (first != null && it != TermItem.EGRESS) {
        problems.add(CellProblem.cell(g.name(), r, itemCol, headerOf(g, itemCol), Message.of("sheet.term.twice", "item",
            Message.of("pick", "en", it.en, "zh", it.zh), "first", first)));
        continue;
      }
      final int row = r;
      java.util.function.Consumer<Message> valueProblem = why -> problems.add(CellProblem.cell(g.name(), row, valueCol,
          valueHeader, why));
      switch (it.kind) {
        case TEXT -> {
          if (it == TermItem.VENDOR_NAME) vendorName = value.isBlank() ? null : value.text();
          else contact = value.isBlank() ? null : value.text();
        }
        case DATE -> {
          if (!value.isBlank()) {
            quoteDate = dateOf(value, valueProblem);
            if (quoteDate != null && quoteDate.isAfter(Grid.today(clock))) {
              valueProblem.accept(Message.of("sheet.quoteDate.future", "date", quoteDate.toString(), "today", Grid.today(clock).toString()));
            }
          }
        }
        case NUMBER -> {
          if (it == TermItem.DISCOUNT) {
            if (!value.isBlank()) discount = discount(value, valueProblem);
          } else {
            Service s = service(value, valueProblem, row, false);
            if (s != null) services.put(it, s);
          }
        }
        case MONEY -> {
          Service s = service(value, valueProblem, row, true);
          if (s == null) continue;
          if (s.status() == Service.Status.PRICED) {
            Grid.Value cur = curCol == null ? Grid.Value.BLANK : g.cell(r, curCol);
            if (cur.isBlank()) {
              if (curCol == null) problems.add(CellProblem.row(g.name(), r, Message.of("sheet.term.noCurrencyColumn")));
              else problems.add(CellProblem.cell(g.name(), r, curCol, headerOf(g, curCol), Message.of("sheet.term.noCurrency",
                  "price", s.price().toPlainString())));
              continue;
            }
            String code = currency(cur.text(), why -> problems.add(CellProblem.cell(g.name(), row, curCol, headerOf(g, curCol), why)));
            if (code == null) continue;
            if (currency == null) {
              currency = code;
              currencyRow = r + 1;
            } else if (!currency.equals(code)) {
              problems.add(CellProblem.cell(g.name(), r, curCol, headerOf(g, curCol), Message.of("sheet.term.mixedCurrency",
                  "code", code, "first", currency, "row", currencyRow)));
              continue;
            }
          }
          if (it == TermItem.EGRESS) {
            Grid.Value upTo = upToCol == null ? Grid.Value.BLANK : g.cell(r, upToCol);
            BigDecimal bound = null;
            if (!upTo.isBlank()) {
              bound = numberOf(upTo, why -> problems.add(CellProblem.cell(g.name(), row, upToCol, headerOf(g, upToCol), why)));
              if (bound == null) continue;
              if (bound.signum() <= 0) {
                problems.add(CellProblem.cell(g.name(), r, upToCol, headerOf(g, upToCol), Message.of("sheet.tier.positive",
                    "got", bound.toPlainString())));
                continue;
              }
            }
            if (s.status() != Service.Status.PRICED) {
              if (first != null || bound != null) {
                valueProblem.accept(Message.of("sheet.tier.needsPrice"));
                continue;
              }
              services.put(it, s);
            } else {
              tiers.add(new Tier(bound, s.price(), r + 1));
            }
          } else {
            services.put(it, s);
          }
        }
        default -> { }
      }
    }
    Service egressStatus = services.getOrDefault(TermItem.EGRESS, Service.UNKNOWN);
    if (!tiers.isEmpty()) {
      if (services.containsKey(TermItem.EGRESS)) {
        problems.add(CellProblem.sheet(g.name(), Message.of("sheet.egress.both", "status", egressStatus.status() == Service.Status.NONE
            ? "none" : "unknown")));
      }
      egressStatus = new Service(Service.Status.PRICED, tiers.get(0).perGb(), tiers.get(0).row());
      checkTiers(g, tiers, upToCol);
    }
    return new Terms(vendorName, currency, services.getOrDefault(TermItem.STORAGE, Service.UNKNOWN), tiers, egressStatus,
        services.getOrDefault(TermItem.INGRESS, Service.UNKNOWN), services.getOrDefault(TermItem.LOAD_BALANCER, Service.UNKNOWN),
        services.getOrDefault(TermItem.MIGRATION_IN, Service.UNKNOWN), services.getOrDefault(TermItem.MIGRATION_OUT, Service.UNKNOWN),
        services.getOrDefault(TermItem.BANDWIDTH, Service.UNKNOWN), discount, contact, quoteDate);
  }

  private void checkTiers(Grid g, List<Tier> tiers, Integer upToCol) {
    String header = upToCol == null ? TermColumn.UP_TO_GB.en : headerOf(g, upToCol);
    int col = upToCol == null ? 0 : upToCol;
    BigDecimal last = BigDecimal.ZERO;
    for (int i = 0; i < tiers.size(); i++) {
      Tier t = tiers.get(i);
      boolean isLast = i == tiers.size() - 1;
      if (t.upToGb() == null && !isLast) {
        problems.add(CellProblem.cell(g.name(), t.row() - 1, col, header, Message.of("sheet.tier.noBoundNotLast")));
        return;
      }
      if (t.upToGb() != null && isLast) {
        problems.add(CellProblem.cell(g.name(), t.row() - 1, col, header, Message.of("sheet.tier.lastBound")));
        return;
      }
      if (t.upToGb() != null && t.upToGb().compareTo(last) <= 0) {
        problems.add(CellProblem.cell(g.name(), t.row() - 1, col, header, Message.of("sheet.tier.rise", "got", t.upToGb().toPlainString(),
            "last", last.toPlainString())));
        return;
      }
      if (t.upToGb() != null) last = t.upToGb();
    }
    if (tiers.stream().noneMatch(t -> t.perGb().signum() > 0) && tiers.size() > 1) {
      problems.add(CellProblem.row(g.name(), tiers.get(0).row() - 1, Message.of("sheet.tier.allZero")));
    }
  }

  /** A service value: a number (0 allowed: the vendor says free), none, unknown, or empty (unknown). */
  private Service service(Grid.Value v, java.util.function.Consumer<Message> problem, int row, boolean money) {
    if (v.isBlank()) return Service.UNKNOWN;
    if (v.type() == Grid.Type.TEXT) {
      String k = SheetLayout.key(v.text());
      switch (k) {
        case "none", "no", "notsold", "notoffered", "不提供", "无", "不支持", "没有" -> {
          return new Service(Service.Status.NONE, null, row + 1);
        }
        case "unknown", "未知", "待定", "tbd" -> {
          return Service.UNKNOWN;
        }
        case "free", "免费" -> {
          return new Service(Service.Status.PRICED, BigDecimal.ZERO, row + 1);
        }
        default -> { }
      }
    }
    BigDecimal n = numberOf(v, problem);
    if (n == null) return null;
    if (n.signum() < 0) {
      problem.accept(Message.of("sheet.service.negative", "got", n.toPlainString()));
      return null;
    }
    if (!money && n.signum() == 0) {
      problem.accept(Message.of("sheet.service.zero"));
      return null;
    }
    return new Service(Service.Status.PRICED, n, row + 1);
  }

  private static BigDecimal discount(Grid.Value v, java.util.function.Consumer<Message> problem) {
    if (v.type() == Grid.Type.TEXT) {
      Matcher zhe = ZHE.matcher(v.text().trim());
      if (zhe.matches()) return new BigDecimal(zhe.group(1)).movePointLeft(1);
      if (v.text().contains("%")) {
        problem.accept(Message.of("sheet.discount.percent", "got", v.text()));
        return null;
      }
    }
    BigDecimal d = numberOf(v, problem);
    if (d == null) return null;
    if (d.signum() <= 0 || d.compareTo(BigDecimal.ONE) > 0) {
      problem.accept(Message.of("sheet.discount.range", "got", d.toPlainString()));
      return null;
    }
    return d;
  }
}
