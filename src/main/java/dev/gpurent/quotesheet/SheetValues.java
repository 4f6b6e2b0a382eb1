package dev.gpurent.quotesheet;

import dev.gpurent.text.Message;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** How a quote sheet's cell reads as a number, a date or a currency, and which cells are refused whatever they hold: both sheets' readers use them. */
final class SheetValues {

  private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)");
  private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
  private static final Map<String, String> CURRENCY_WORDS = Map.of("RMB", "CNY", "元", "CNY", "人民币", "CNY",
      "美元", "USD", "港币", "HKD", "港元", "HKD", "欧元", "EUR");

  private SheetValues() {}

  /** Without trailing zeros, and never in exponent form (12000, not 1.2E+4). */
  static BigDecimal plain(BigDecimal d) {
    BigDecimal s = d.stripTrailingZeros();
    return s.scale() < 0 ? s.setScale(0) : s;
  }

  static String headerOf(Grid g, int c) {
    Grid.Value h = g.cell(0, c);
    return h.isBlank() ? null : h.text();
  }

  /** Formulas and error values are refused wherever they are. */
  static void typeCheck(List<CellProblem> problems, Grid g, int r, int c, String header) {
    Grid.Value v = g.cell(r, c);
    if (v.type() == Grid.Type.FORMULA) {
      problems.add(CellProblem.cell(g.name(), r, c, header, Message.of("sheet.formula", "formula", v.text())));
    } else if (v.type() == Grid.Type.ERROR) {
      problems.add(CellProblem.cell(g.name(), r, c, header, Message.of("sheet.errorValue", "value", v.text())));
    }
  }

  private static final List<DateTimeFormatter> DATE_FORMATS = List.of(DateTimeFormatter.ISO_LOCAL_DATE,
      DateTimeFormatter.ofPattern("yyyy/M/d"), DateTimeFormatter.ofPattern("yyyy.M.d"),
      DateTimeFormatter.ofPattern("yyyy年M月d日"));

  static LocalDate dateOf(Grid.Value v, java.util.function.Consumer<Message> problem) {
    if (v.type() == Grid.Type.DATE) return v.date();
    if (v.type() == Grid.Type.NUMBER) {
      problem.accept(Message.of("sheet.date.number", "got", v.text()));
      return null;
    }
    for (DateTimeFormatter f : DATE_FORMATS) {
      try {
        return LocalDate.parse(v.text(), f);
      } catch (DateTimeParseException e) {
        // try the next
      }
    }
    problem.accept(Message.of("sheet.date.bad", "got", v.text()));
    return null;
  }

  static String currency(String text, java.util.function.Consumer<Message> problem) {
    String t = text.trim();
    String code = CURRENCY_WORDS.getOrDefault(t.toUpperCase(Locale.ROOT), CURRENCY_WORDS.getOrDefault(t, t.toUpperCase(Locale.ROOT)));
    if (!CURRENCY.matcher(code).matches()) {
      problem.accept(Message.of("sheet.currency.bad", "got", text));
      return null;
    }
    try {
      java.util.Currency.getInstance(code);
    } catch (IllegalArgumentException e) {
      problem.accept(Message.of("sheet.currency.unknown", "got", code));
      return null;
    }
    return code;
  }

  static BigDecimal numberOf(Grid.Value v, java.util.function.Consumer<Message> problem) {
    if (v.type() == Grid.Type.NUMBER) return v.number();
    if (v.type() == Grid.Type.TEXT && NUMBER.matcher(v.text()).matches()) return new BigDecimal(v.text());
    if (v.type() == Grid.Type.DATE) {
      problem.accept(Message.of("sheet.number.date", "got", v.text()));
      return null;
    }
    problem.accept(Message.of(v.text().matches(".*\\d.*") ? "sheet.number.textDigits" : "sheet.number.text", "got", v.text()));
    return null;
  }
}
