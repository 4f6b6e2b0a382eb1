package dev.gpurent.adapter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A vendor's refused rows as a person reads them: each row's place in its source (a line, a
 * record, an offer) and its reason, the first {@code limit} of them, and how many rows each kind
 * of reason refused. Read from a payload's rejected list, whose every line is {@code "<where>:
 * <reason>"} (every parser, {@code QuoteIntegrity} and {@code MarketPlausibility} write them so),
 * or a {@link RowLog} summary {@code "skipped N rows: <reason> (first: ...)"}, which counts N.
 *
 * <p>A reason's kind is its text with what varies from row to row left out: quoted values and
 * figures become {@code '…'} and {@code N}, and what follows the first parenthesis or semicolon
 * (the figures' explanation) is dropped, so that 27 RunPod prices of clouds not offered count as
 * two kinds (community and secure), not 27.
 *
 * @param total    rows refused, skipped rows counted one by one
 * @param byReason rows per kind of reason, most first (ties in first-seen order)
 * @param first    the first rows, in the order the source gave them
 */
public record RefusedRows(long total, Map<String, Long> byReason, List<Row> first) {

  /** One refused row: where it is in the source, and why. */
  public record Row(String at, String reason) {}

  /** How many rows a status page lists. */
  public static final int LIMIT = 100;

  private static final Pattern SKIPPED = Pattern.compile("skipped (\\d+) \\w+: (.*?)(?: \\(first: (.*)\\))?");
  private static final Pattern QUOTED = Pattern.compile("'[^']*'");
  private static final Pattern FIGURE = Pattern.compile("[+-]?\\d[\\d,]*(\\.\\d+)?([eE][+-]?\\d+)?");

  /** The report of a rejected list, listing at most {@code limit} rows. */
  public static RefusedRows of(List<String> rejected, int limit) {
    long total = 0;
    Map<String, Long> counts = new LinkedHashMap<>();
    List<Row> first = new ArrayList<>();
    for (String line : rejected) {
      Matcher m = SKIPPED.matcher(line);
      Row row;
      long n = 1;
      if (m.matches()) {
        n = Long.parseLong(m.group(1));
        row = new Row(m.group(3) == null ? "" : "first: " + m.group(3), "skipped: " + m.group(2));
      } else {
        int colon = line.indexOf(": ");
        row = colon < 0 ? new Row("", line) : new Row(line.substring(0, colon), line.substring(colon + 2));
      }
      total += n;
      counts.merge(kind(row.reason()), n, Long::sum);
      if (first.size() < limit) first.add(row);
    }
    Map<String, Long> sorted = new LinkedHashMap<>();
    counts.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return new RefusedRows(total, sorted, first);
  }

  /** A reason without what varies from row to row (see the class comment). */
  static String kind(String reason) {
    String k = reason;
    int cut = k.length();
    for (String stop : new String[] {" (", "; "}) {
      int i = k.indexOf(stop);
      if (i > 0 && i < cut) cut = i;
    }
    k = k.substring(0, cut);
    k = QUOTED.matcher(k).replaceAll("'…'");
    return FIGURE.matcher(k).replaceAll("N");
  }

  /** As JSON-ready maps: {@code {total, byReason: [{reason, rows}], rows: [{at, reason}]}}. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("total", total);
    m.put("byReason", byReason.entrySet().stream().map(e -> {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("reason", e.getKey());
      r.put("rows", e.getValue());
      return r;
    }).toList());
    m.put("rows", first.stream().map(r -> {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("at", r.at());
      x.put("reason", r.reason());
      return x;
    }).toList());
    return m;
  }
}
