package dev.gpurent.quotesheet;

import dev.gpurent.adapter.StaticSheetFormat;
import dev.gpurent.adapter.VendorAdapter;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.quotesheet.QuoteSheet.Offer;
import dev.gpurent.quotesheet.QuoteSheet.Service;
import dev.gpurent.quotesheet.QuoteSheet.Terms;
import dev.gpurent.quotesheet.QuoteSheet.Tier;
import dev.gpurent.quotesheet.QuoteSheetReader.Upload;
import dev.gpurent.text.Message;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Turns a checked quote sheet into a vendor: {@code adapters/ID.yaml} of kind {@code static}
 * (offers with their valid-until dates, terms in the vendor-terms format) and, beside it, the
 * sheet as received ({@code ID.quote.xlsx}, or {@code ID.offers.csv} and {@code ID.terms.csv}).
 * Both are written only when the whole sheet is good, each to a temporary file first and then
 * moved into place, so a failed import leaves {@code adapters/} as it was.
 *
 * <p>A vendor file of that id that was not itself imported from a quote sheet is never
 * overwritten; a re-import of a sheet replaces the earlier import (a vendor sends a new quote).
 */
public final class QuoteSheetImport {

  private QuoteSheetImport() {}

  /**
   * What an import wrote.
   *
   * @param warnings what the importer should know though nothing was wrong: a card name several cards answer to (read as
   *                 the one the vendors' data mean), the display name another vendor already carries; said at the edge
   */
  public record Result(String vendor, Path yaml, List<Path> sheets, int offers, int quotes, String yamlText, List<Message> warnings) {}

  private static final java.util.regex.Pattern ID = java.util.regex.Pattern.compile("[a-z0-9][a-z0-9-]*");

  /**
   * Checks {@code files} (see {@link QuoteSheetReader#read}) and writes vendor {@code vendorId} into
   * {@code adaptersDir}. Fails with {@link BadSheetException} (every problem named, nothing written).
   */
  public static Result run(Path adaptersDir, String vendorId, List<Upload> files, GpuCatalog catalog, Clock clock) {
    String id = vendorId == null ? "" : vendorId.trim();
    if (!ID.matcher(id).matches()) {
      throw new BadSheetException(List.of(CellProblem.sheet("vendor", Message.of("sheet.vendor.id", "got", id))));
    }
    Path yaml = adaptersDir.resolve(id + ".yaml");
    checkFree(adaptersDir, id, yaml);
    QuoteSheet sheet = QuoteSheetReader.read(files, catalog, clock);
    boolean xlsx = files.size() == 1 && !files.get(0).name().toLowerCase(Locale.ROOT).endsWith(".csv");
    List<String> savedNames = xlsx ? List.of(id + ".quote.xlsx")
        : files.size() == 1 ? List.of(id + ".offers.csv") : List.of(id + ".offers.csv", id + ".terms.csv");
    String received = String.join(" and ", files.stream().map(Upload::name).toList());
    String text = yaml(sheet, id, received, savedNames, Grid.today(clock));
    int quotes = check(text, yaml, catalog, clock);
    List<Path> written = new ArrayList<>();
    try {
      Files.createDirectories(adaptersDir);
      for (int i = 0; i < savedNames.size(); i++) written.add(write(adaptersDir.resolve(savedNames.get(i)), files.get(i).bytes()));
      write(yaml, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write vendor " + id + " into " + adaptersDir + ": " + e.getMessage(), e);
    }
    String name = sheet.terms().vendorName() != null ? sheet.terms().vendorName() : id;
    List<Message> warnings = new ArrayList<>(sheet.asks().stream().map(CellProblem::said).toList());
    warnings.addAll(sameName(adaptersDir, yaml, name));
    return new Result(id, yaml, written, sheet.offers().size(), quotes, text, warnings);
  }

  /**
   * A warning for each other vendor file of {@code dir} whose display name is {@code name}: two vendors
   * of one name are told apart by their ids wherever a name is shown, but the importer should know.
   */
  private static List<Message> sameName(Path dir, Path yaml, String name) {
    List<Message> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f : s.filter(p -> p.getFileName().toString().matches(".*\\.ya?ml") && !p.equals(yaml)).sorted().toList()) {
        Object root;
        try {
          root = YamlFiles.load(f);
        } catch (IllegalArgumentException e) {
          continue;
        }
        if (root instanceof Map<?, ?> m && m.get("vendor") != null
            && name.equals(String.valueOf(m.get("name") != null ? m.get("name") : m.get("vendor")))) {
          out.add(Message.of("sheet.vendor.sameName", "name", name, "vendor", String.valueOf(m.get("vendor")),
              "file", f.getFileName().toString()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** Refuses to replace a vendor that was not imported from a quote sheet, or to give one id to two files. */
  private static void checkFree(Path dir, String id, Path yaml) {
    if (!Files.isDirectory(dir)) return;
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f : s.filter(p -> p.getFileName().toString().matches(".*\\.ya?ml")).sorted().toList()) {
        Object root;
        try {
          root = YamlFiles.load(f);
        } catch (IllegalArgumentException e) {
          continue;  // a broken file is the directory's problem, reported when vendors load
        }
        if (!(root instanceof Map<?, ?> m)) continue;
        boolean same = f.equals(yaml);
        if (!same && id.equals(String.valueOf(m.get("vendor")))) {
          throw new BadSheetException(List.of(CellProblem.sheet("vendor", Message.of("sheet.vendor.taken", "vendor", id,
              "file", f.getFileName().toString()))));
        }
        if (same && !m.containsKey("quoteSheet")) {
          throw new BadSheetException(List.of(CellProblem.sheet("vendor", Message.of("sheet.vendor.notImported",
              "file", f.getFileName().toString()))));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Loads the YAML as the service will, and fetches it once: any offer the adapter refuses is an import bug, not data. */
  private static int check(String text, Path where, GpuCatalog catalog, Clock clock) {
    @SuppressWarnings("unchecked") Map<String, Object> map =
        (Map<String, Object>) YamlFiles.parse(new StringReader(text), where.toString());
    VendorDefinition def = VendorDefinition.from(new JsonObject(map), where);
    VendorAdapter adapter = StaticSheetFormat.create(def, catalog, clock);
    VendorQuotes q = adapter.fetch().toCompletionStage().toCompletableFuture().join();
    if (!q.rejected().isEmpty()) throw new IllegalStateException("the written vendor refuses rows: " + q.rejected());
    return q.quotes().size();
  }

  private static Path write(Path target, byte[] bytes) throws IOException {
    Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
    try {
      Files.write(tmp, bytes);
      try {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    return target;
  }

  /** The vendor YAML, every string double-quoted (JSON strings are YAML strings), so no value changes meaning. */
  static String yaml(QuoteSheet sheet, String id, String received, List<String> savedNames, LocalDate today) {
    Terms t = sheet.terms();
    String currency = t.currency() != null ? t.currency() : sheet.offers().get(0).currency();
    String source = "quote sheet " + received + (t.quoteDate() == null ? "" : " of " + t.quoteDate());
    StringBuilder y = new StringBuilder();
    y.append("# Imported from the quote sheet ").append(received).append(" on ").append(today)
        .append(" by `gpurent quote-sheet import`;\n")
        .append("# the sheet is kept beside this file (").append(String.join(", ", savedNames)).append(").\n")
        .append("# To change a price, import the vendor's new sheet rather than editing this file.\n");
    y.append("vendor: ").append(q(id)).append('\n');
    y.append("name: ").append(q(t.vendorName() != null ? t.vendorName() : id)).append('\n');
    y.append("kind: \"static\"\n");
    y.append("currency: ").append(q(currency)).append('\n');
    y.append("refresh: \"1d\"\n");
    if (t.quoteDate() != null) y.append("asOf: ").append(q(t.quoteDate().toString())).append('\n');
    y.append("quoteSheet: ").append(q(savedNames.get(0))).append('\n');
    if (t.contact() != null) y.append("contact: ").append(q(t.contact())).append('\n');
    y.append("note: ").append(q("prices from the vendor's quote sheet" + (t.quoteDate() == null ? "" : " of " + t.quoteDate())))
        .append('\n');
    y.append("terms:\n");
    y.append("  currency: ").append(q(currency)).append('\n');
    y.append("  storagePerGbMonth: ").append(service(t.storage(), source, "terms")).append('\n');
    if (t.egress().size() > 1) {
      y.append("  egressTiers:\n");
      for (Tier tier : t.egress()) {
        y.append("    - {").append(tier.upToGb() == null ? "" : "upToGb: " + plain(tier.upToGb()) + ", ")
            .append("perGb: ").append(plain(tier.perGb())).append("}\n");
      }
    } else {
      y.append("  egressPerGb: ").append(service(t.egressStatus(), source, "terms")).append('\n');
    }
    y.append("  ingressPerGb: ").append(service(t.ingress(), source, "terms")).append('\n');
    y.append("  loadBalancerPerMonth: ").append(service(t.loadBalancer(), source, "terms")).append('\n');
    // read by no one yet: the engine will price migration and bandwidth caps from these (issue 19, part 3)
    y.append("  migrationInPerGb: ").append(service(t.migrationIn(), source, "terms")).append('\n');
    y.append("  migrationOutPerGb: ").append(service(t.migrationOut(), source, "terms")).append('\n');
    y.append("  bandwidthMbps: ").append(t.bandwidth().status() == Service.Status.PRICED ? plain(t.bandwidth().price())
        : q(t.bandwidth().status() == Service.Status.NONE ? "none" : "unknown")).append('\n');
    if (t.discount() != null) y.append("  discount: ").append(plain(t.discount())).append('\n');
    y.append("  granularity: \"hour\"\n");
    y.append("  source: ").append(q(source)).append('\n');
    y.append("offers:\n");
    for (Offer o : sheet.offers()) {
      y.append("  - gpu: ").append(q(o.gpuId())).append("          # sheet row ").append(o.row()).append('\n');
      y.append("    offer: ").append(q(o.offerId())).append('\n');
      y.append("    count: ").append(plain(o.gpus())).append('\n');
      if (!o.region().isEmpty()) y.append("    region: ").append(q(o.region())).append('\n');
      if (!o.country().isEmpty()) y.append("    country: ").append(q(o.country())).append('\n');
      if (o.vcpus().signum() > 0) y.append("    vcpus: ").append(plain(o.vcpus())).append('\n');
      if (o.ramGiB().signum() > 0) y.append("    ramGiB: ").append(plain(o.ramGiB())).append('\n');
      y.append("    currency: ").append(q(o.currency())).append('\n');
      y.append("    prices: {").append(q(o.billing().wire())).append(": ").append(q(plain(o.price()) + "/" + o.unit().wire()))
          .append("}\n");
      if (o.validUntil() != null) y.append("    validUntil: ").append(q(o.validUntil().toString())).append('\n');
    }
    return y.toString();
  }

  /** A service term: a positive price, {price: 0, source} for a vendor-stated 0, none or unknown. */
  private static String service(Service s, String source, String sheetName) {
    return switch (s.status()) {
      case NONE -> "\"none\"";
      case UNKNOWN -> "\"unknown\"";
      case PRICED -> s.price().signum() > 0 ? plain(s.price())
          : "{price: 0, source: " + q(source + ", sheet " + sheetName + " row " + s.row() + ": the vendor quotes 0") + "}";
    };
  }

  private static String plain(BigDecimal d) {
    return d.stripTrailingZeros().toPlainString();
  }

  private static String q(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
          else b.append(c);
        }
      }
    }
    return b.append('"').toString();
  }
}
