package dev.gpurent.cost;

import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.ServicePrice;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Message;
import dev.gpurent.text.Messages;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The engine's words as {@link Message}s of the {@code engine} and {@code common} bundles: rendered per language at the edge. */
public final class Words {

  /** No text: a note or reason that says nothing, "" in every language. */
  public static final Message EMPTY = Message.of("empty");

  private Words() {}

  public static Message of(String code, Object... nameValues) {
    return Message.of(code, nameValues);
  }

  /** Parts read one after the other, with no separator: a sentence built of clauses. */
  public static Message seq(List<Message> parts) {
    return Message.of("seq", "parts", List.copyOf(parts));
  }

  /** Parts joined by "; " (Chinese "；"). */
  public static Message list(List<Message> parts) {
    return Message.of("list", "items", List.copyOf(parts));
  }

  public static boolean isEmpty(Message m) {
    return m.code().equals(EMPTY.code());
  }

  /** A billing mode in the guide's words: on-demand / 按量计费, monthly / 包月, yearly / 包年, spot / 竞价实例. */
  public static Message billing(Billing b) {
    return Message.of("billing." + b.wire());
  }

  /** The bill's item for a workload kind: "inference GPU" / 推理GPU. */
  public static Message item(Workload.Kind k) {
    return Message.of("item." + k.wire());
  }

  /** How old a vendor's prices are: "fresh", "stale (40 min old)". */
  public static Message freshness(Freshness f) {
    return f.state() == Freshness.State.FRESH ? Message.of("freshness.fresh")
        : Message.of("freshness." + f.state().name().toLowerCase(Locale.ROOT), "minutes", f.age().toMinutes());
  }

  /** As {@link #freshness(Freshness)}, "undated" for fresh prices of which one states no date of its own. */
  public static Message freshness(Freshness f, boolean undated) {
    return undated && f.state() == Freshness.State.FRESH ? Message.of("freshness." + Freshness.UNDATED) : freshness(f);
  }

  /**
   * A vendor's note from its adapters/*.yaml: the engine bundle's words for it when the bundle
   * knows that note (a {@code vendornote.*} code whose English is the note), else the note as written.
   */
  public static Message vendorNote(String note) {
    if (note == null || note.isEmpty()) return EMPTY;
    String code = KNOWN_NOTES.get(note);
    return code != null ? Message.of(code) : Message.of("vendor.note", "text", note);
  }

  private static final Map<String, String> KNOWN_NOTES = knownNotes();

  private static Map<String, String> knownNotes() {
    Messages en = Messages.of("engine", Lang.EN);
    Map<String, String> byText = new HashMap<>();
    for (String code : en.codes()) if (code.startsWith("vendornote.")) byText.put(en.template(code), code);
    return Map.copyOf(byText);
  }

  // The reasons a QuoteBook gives for a vendor with no quotes are made by the quote service as text
  // (it is not the engine's); the ones it makes are read back into messages here, anything else is shown as it is.
  private static final Pattern OFFLINE = Pattern.compile("offline, and no quotes were saved from an earlier fetch"),
      FIRST_FETCH = Pattern.compile("no quotes yet: first fetch under way"),
      NO_QUOTES = Pattern.compile("no quotes yet: (.*)", Pattern.DOTALL),
      EXPIRED = Pattern.compile("quote expired on (\\S+) \\(valid until (\\S+)\\)"),
      NOT_CURRENT = Pattern.compile("prices (\\w+) \\((\\d+) min old\\): not current, and not in the previous snapshot");

  /** A book-level reason (offline, never fetched, expired) as a message. */
  public static Message bookReason(String reason) {
    Matcher m;
    if (OFFLINE.matcher(reason).matches()) return Message.of("book.offline");
    if (FIRST_FETCH.matcher(reason).matches()) return Message.of("book.firstFetch");
    if ((m = NO_QUOTES.matcher(reason)).matches()) return Message.of("book.noQuotes", "detail", m.group(1));
    if ((m = EXPIRED.matcher(reason)).matches()) return Message.of("book.expired", "on", m.group(1), "until", m.group(2));
    if ((m = NOT_CURRENT.matcher(reason)).matches()) {
      return Message.of("book.notCurrent", "freshness", Message.of("freshness." + m.group(1), "minutes", Long.parseLong(m.group(2))));
    }
    return Message.of("reason.text", "text", reason);
  }

  /** What a source says of an offer's stock: "3 in stock (available_count=3)", "in stock (rentable: true)", "not rentable now (SOLD_OUT)". */
  public static Message stock(dev.gpurent.quote.Stock s) {
    if (s.isUnavailable()) return Message.of("skipped.stock", "said", s.said());
    return s.count() == null ? Message.of("stock.available", "said", s.said())
        : Message.of("stock.count", "count", s.count(), "said", s.said());
  }

  /** A price unit inside a sentence ("hour", "GB-month" / 小时, GB·月): the report bundle's word when it has one, else as written. */
  public static Object unit(String unit) {
    String code = "unit." + unit.replace(' ', '-');
    return Messages.of("report", Lang.EN).has(code) ? Message.of(code) : unit;
  }

  /** A service's name on a bill: "object storage" / 对象存储. */
  public static Message service(ServicePrice.Service s) {
    return SERVICES[s.ordinal()];
  }

  // made once: every vendor's plan names its services (a message is immutable)
  private static final Message[] SERVICES = java.util.Arrays.stream(ServicePrice.Service.values())
      .map(s -> Message.of("service." + s.key())).toArray(Message[]::new);
}
