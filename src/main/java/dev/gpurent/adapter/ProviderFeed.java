package dev.gpurent.adapter;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A CSV of many providers' rows (the market observations file, an OpenComputePrices file) read
 * once: its header, its columns by name, its rows in file order, and each provider's rows, so that
 * every vendor that quotes one provider of the file reads its own rows without reading the file
 * again ({@link SharedFeeds}). Immutable once read.
 */
final class ProviderFeed {

  /** What a kind requires of the header; throws IllegalArgumentException naming what is missing. */
  @FunctionalInterface
  interface HeaderCheck {
    void check(List<String> header, Map<String, Integer> columns);
  }

  private final List<String> header;
  private final Map<String, Integer> columns;
  private final List<CsvRows.Row> rows;
  private final Map<String, List<CsvRows.Row>> byProvider;

  private ProviderFeed(List<String> header, Map<String, Integer> columns, List<CsvRows.Row> rows,
                       Map<String, List<CsvRows.Row>> byProvider) {
    this.header = header;
    this.columns = columns;
    this.rows = rows;
    this.byProvider = byProvider;
  }

  /**
   * Reads every row of {@code in}, which it closes. Columns are found by their trimmed lowercase
   * name (the first of a repeated one); blank lines are left out; a row's provider is its
   * {@code provider} cell trimmed and lowercased, "" where the row is too short to have one.
   *
   * @param noHeader the message of the IllegalArgumentException thrown for an empty payload
   */
  static ProviderFeed read(Reader in, String noHeader, HeaderCheck check) {
    try (CsvRows csv = CsvRows.of(in)) {
      CsvRows.Row head = csv.next();
      if (head == null) throw new IllegalArgumentException(noHeader);
      List<String> header = head.cells();
      Map<String, Integer> col = new HashMap<>();
      for (int i = 0; i < header.size(); i++) col.putIfAbsent(header.get(i).trim().toLowerCase(Locale.ROOT), i);
      check.check(header, col);
      Integer provider = col.get("provider");
      if (provider == null) throw new IllegalStateException("the header check let a header without a provider column through");
      List<CsvRows.Row> rows = new ArrayList<>();
      Map<String, List<CsvRows.Row>> byProvider = new HashMap<>();
      for (CsvRows.Row r = csv.next(); r != null; r = csv.next()) {
        if (r.blank()) continue;
        rows.add(r);
        String p = provider < r.cells().size() ? r.cells().get(provider).trim().toLowerCase(Locale.ROOT) : "";
        byProvider.computeIfAbsent(p, k -> new ArrayList<>()).add(r);
      }
      return new ProviderFeed(List.copyOf(header), Map.copyOf(col), Collections.unmodifiableList(rows), byProvider);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  List<String> header() {
    return header;
  }

  /** Column index by trimmed lowercase name. */
  Map<String, Integer> columns() {
    return columns;
  }

  /** Every non-blank row after the header, in file order. */
  List<CsvRows.Row> rows() {
    return rows;
  }

  /** The rows of these providers (lowercase), in file order. */
  List<CsvRows.Row> rows(String... providers) {
    List<CsvRows.Row> out = new ArrayList<>();
    for (String p : providers) out.addAll(byProvider.getOrDefault(p, List.of()));
    if (providers.length > 1) out.sort(Comparator.comparingInt(CsvRows.Row::line));
    return out;
  }
}
