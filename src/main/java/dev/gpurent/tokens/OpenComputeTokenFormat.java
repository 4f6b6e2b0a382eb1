package dev.gpurent.tokens;

import dev.gpurent.adapter.CsvRows;
import dev.gpurent.quote.TokenPriceBook;
import dev.gpurent.quote.TokenQuote;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The per-token rows of thatkavish/OpenComputePrices (PROVENANCE.md 10 and 10a, trap 5;
 * opencomputeprices/SCHEMA.md): one row per model of an inference API, {@code pricing_type}
 * {@code inference}, {@code price_unit} {@code token}, {@code price_per_hour} 0, and the real
 * prices only in the JSON of {@code raw_extra}, in a unit of each source's own (the {@code source}
 * column says which):
 * <ul>
 *   <li>{@code openrouter}: {@code prompt_price_per_token} and {@code completion_price_per_token},
 *       decimal text in USD per token ("0.0000004" is 0.40 per million); {@code context_length};
 *       {@code modality} as the task;</li>
 *   <li>{@code deepinfra}: {@code cents_per_input_token} and {@code cents_per_output_token},
 *       numbers in US cents per token (5e-06 cents is 0.05 USD per million); {@code reported_max_tokens};
 *       {@code type} as the task (embeddings and rerankers generate nothing: output 0);</li>
 *   <li>{@code novita}: {@code input_price} and {@code output_price}, text in USD per million
 *       tokens ("$0.269 /Mt", some followed by "· Cache Read $0.1345 /Mt", kept as a note);
 *       {@code context_length} with thousands commas ("163,840");</li>
 *   <li>{@code together}: {@code input} and {@code output}, dollar text with no unit, read as per
 *       million tokens since their sizes are per-million prices (PROVENANCE.md 10a); one carries
 *       HTML residue ("$0.30$0.06&amp;nbsp;(cached)": 0.30, the cached price kept as a note); no
 *       context length.</li>
 * </ul>
 * Columns are found by name. A row that cannot be read is refused as {@code "<file> line <n>:
 * <reason>"}: not a per-token row, an unknown source, raw_extra that is not a JSON object, a
 * price missing or not in its source's unit (novita's "-" and "Tiered pricing"), a negative price,
 * both prices 0 (no charge recorded is not "free"), a collection time after the read. A file
 * without the needed columns is not this format: IllegalArgumentException. Pure; the time of the
 * read comes from the caller.
 */
public final class OpenComputeTokenFormat {

  private static final List<String> COLUMNS = List.of("snapshot_ts", "source", "instance_type", "pricing_type",
      "price_unit", "currency", "raw_extra");
  private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);
  private static final BigDecimal TEN_THOUSAND = BigDecimal.valueOf(10_000);
  /** Novita: "$0.269 /Mt", then anything (a cache-read price). */
  private static final Pattern PER_MT = Pattern.compile("\\$\\s*(\\d+(?:\\.\\d+)?)\\s*/Mt(.*)", Pattern.DOTALL);
  /** Together: "$0.30", then anything (a cached price, HTML residue). */
  private static final Pattern DOLLARS = Pattern.compile("\\$\\s*(\\d+(?:\\.\\d+)?)(.*)", Pattern.DOTALL);
  private static final Pattern GROUPED = Pattern.compile("\\d{1,3}(,\\d{3})*|\\d+");

  private OpenComputeTokenFormat() {}

  /** A row refused, with its reason. */
  private static final class Refused extends Exception {
    Refused(String reason) {
      super(reason, null, false, false);
    }
  }

  /**
   * The quotes of one file.
   *
   * @param in     the CSV text, closed by this method
   * @param file   the file's name, cited by every quote and refusal ("deepinfra.csv")
   * @param readAt when the file was read: a row collected after it is refused
   */
  public static TokenPriceBook parse(Reader in, String file, Instant readAt) throws IOException {
    List<TokenQuote> quotes = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    try (CsvRows rows = CsvRows.of(in)) {
      CsvRows.Row header = rows.next();
      if (header == null) throw new IllegalArgumentException(file + ": empty, no header");
      Map<String, Integer> col = new HashMap<>();
      for (int i = 0; i < header.cells().size(); i++) col.put(header.cells().get(i).trim(), i);
      for (String c : COLUMNS) {
        if (!col.containsKey(c)) throw new IllegalArgumentException(file + ": no column '" + c + "'; not an OpenComputePrices file");
      }
      for (CsvRows.Row row = rows.next(); row != null; row = rows.next()) {
        if (row.blank()) continue;
        String where = file + " line " + row.line();
        try {
          quotes.add(quote(row.cells(), col, where, readAt));
        } catch (Refused e) {
          refused.add(where + ": " + e.getMessage());
        }
      }
    }
    return new TokenPriceBook(quotes, refused, List.of(file));
  }

  private static TokenQuote quote(List<String> cells, Map<String, Integer> col, String where, Instant readAt) throws Refused {
    if (cells.size() != col.size()) throw new Refused(cells.size() + " cells where the header has " + col.size());
    String pricing = cell(cells, col, "pricing_type"), unit = cell(cells, col, "price_unit");
    if (!pricing.equals("inference") || !unit.equals("token")) {
      throw new Refused("not a per-token row (pricing_type '" + pricing + "', price_unit '" + unit + "')");
    }
    String currency = cell(cells, col, "currency");
    if (!currency.matches("[A-Z]{3}")) throw new Refused("currency '" + currency + "' is no ISO code");
    Instant asOf;
    try {
      asOf = Instant.parse(cell(cells, col, "snapshot_ts"));
    } catch (DateTimeParseException e) {
      throw new Refused("snapshot_ts '" + cell(cells, col, "snapshot_ts") + "' is no UTC time");
    }
    if (asOf.isAfter(readAt)) throw new Refused("collected at " + asOf + ", after the file was read (" + readAt + ")");
    JsonObject extra;
    try {
      extra = new JsonObject(cell(cells, col, "raw_extra"));
    } catch (DecodeException | ClassCastException e) {
      throw new Refused("raw_extra is not a JSON object");
    }
    String source = cell(cells, col, "source");
    String model = cell(cells, col, "instance_type");
    TokenQuote q = switch (source) {
      case "openrouter" -> new TokenQuote(source, text(extra, "model_id", model),
          perToken(extra, "prompt_price_per_token", MILLION), perToken(extra, "completion_price_per_token", MILLION),
          currency, count(extra, "context_length"), extra.getString("modality"), null, where, asOf);
      case "deepinfra" -> new TokenQuote(source, text(extra, "model_name", model),
          perToken(extra, "cents_per_input_token", TEN_THOUSAND), perToken(extra, "cents_per_output_token", TEN_THOUSAND),
          currency, count(extra, "reported_max_tokens"), blankToNull(extra.getString("type")), null, where, asOf);
      case "novita" -> {
        Matcher in = price(extra, "input_price", PER_MT, "'$x /Mt'"), out = price(extra, "output_price", PER_MT, "'$x /Mt'");
        yield new TokenQuote(source, text(extra, "model_name", model), new BigDecimal(in.group(1)), new BigDecimal(out.group(1)),
            currency, count(extra, "context_length"), null, note(in.group(2), out.group(2)), where, asOf);
      }
      case "together" -> {
        Matcher in = price(extra, "input", DOLLARS, "'$x'"), out = price(extra, "output", DOLLARS, "'$x'");
        yield new TokenQuote(source, text(extra, "model", model), new BigDecimal(in.group(1)), new BigDecimal(out.group(1)),
            currency, null, null, note(in.group(2), out.group(2)), where, asOf);
      }
      default -> throw new Refused("source '" + source + "' is none of openrouter, deepinfra, novita, together");
    };
    if (q.inputPerMillion().signum() == 0 && q.outputPerMillion().signum() == 0) {
      throw new Refused("input and output both priced 0: no charge recorded, not a price");
    }
    return q;
  }

  private static String cell(List<String> cells, Map<String, Integer> col, String name) {
    return cells.get(col.get(name)).trim();
  }

  private static String text(JsonObject extra, String key, String fallback) throws Refused {
    Object v = extra.getValue(key);
    String s = v instanceof String t && !t.isBlank() ? t.trim() : fallback;
    if (s.isEmpty()) throw new Refused("no model name (" + key + " and instance_type empty)");
    return s;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  /** A price per token (a number or its decimal text) times {@code toPerMillion}: 1,000,000 for USD, 10,000 for US cents. */
  private static BigDecimal perToken(JsonObject extra, String key, BigDecimal toPerMillion) throws Refused {
    Object v = extra.getValue(key);
    BigDecimal d = null;
    if (v instanceof Number || v instanceof String) {
      try {
        d = new BigDecimal(v.toString().trim());
      } catch (NumberFormatException e) {
        d = null;
      }
    }
    if (d == null) throw new Refused(key + " '" + v + "' is not a number");
    if (d.signum() < 0) throw new Refused(key + " '" + v + "' is negative");
    return d.multiply(toPerMillion);
  }

  private static Matcher price(JsonObject extra, String key, Pattern unit, String form) throws Refused {
    Object v = extra.getValue(key);
    Matcher m = v instanceof String s ? unit.matcher(s.trim()) : null;
    if (m == null || !m.matches()) throw new Refused(key + " '" + v + "' is no price in the source's unit (" + form + ")");
    return m;
  }

  /** Whatever follows the prices (a cache-read or cached price), HTML residue and separators cleaned, or null. */
  private static String note(String... rests) {
    StringBuilder sb = new StringBuilder();
    for (String r : rests) {
      String t = r.replace("&nbsp;", " ").replaceAll("<[^>]*>", "").replaceAll("^[\\s\u00b7]+", "").trim();
      if (t.isEmpty()) continue;
      if (sb.length() > 0) sb.append("; ");
      sb.append(t.startsWith("$") ? "cached input " + t.replace("(cached)", "").trim() : t);
    }
    return sb.length() == 0 ? null : sb.toString();
  }

  /** A token count (a number, or text with thousands commas as novita writes it), or null when not stated. */
  private static Integer count(JsonObject extra, String key) throws Refused {
    Object v = extra.getValue(key);
    if (v == null) return null;
    String t = v.toString().trim();
    if (!GROUPED.matcher(t).matches()) throw new Refused(key + " '" + v + "' is not a token count");
    try {
      return Integer.valueOf(t.replace(",", ""));
    } catch (NumberFormatException e) {
      throw new Refused(key + " '" + v + "' is not a token count");
    }
  }
}
