package dev.gpurent.adapter;

import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.PlainValues;
import dev.gpurent.quote.FxHistory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The ECB euro reference rates ({@code eurofxref-daily.xml}, {@code eurofxref-hist-90d.xml},
 * {@code eurofxref-hist.xml}): nested {@code <Cube time='YYYY-MM-DD'>} elements, each holding
 * {@code <Cube currency='USD' rate='1.1252'/>} = units of that currency per 1 EUR. Quote style,
 * whitespace and day order vary between files; all are read the same way. Not a vendor adapter:
 * it feeds {@link dev.gpurent.quote.FxRates} for currency conversion.
 *
 * <p>Config ({@code fx:} section of config/gpurent.yaml): {@code source} (URL or file; default
 * {@value #DAILY_URL}), {@code timeout} (default 30s), optional {@code headers}.
 */
public final class EcbFxAdapter {

  public static final String DAILY_URL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml";
  public static final String FEED = "ECB euro reference rates";

  private EcbFxAdapter() {}

  /**
   * Fetches and parses the feed named by {@code fxConfig} (may be null: the public daily file).
   * Parsing runs on a worker thread. Bad config, an unreachable source or an unreadable payload
   * fail the future.
   */
  public static Future<FxHistory> fetch(Vertx vertx, JsonObject fxConfig) {
    JsonObject c = fxConfig == null ? new JsonObject() : fxConfig;
    PayloadSource source;
    try {
      source = source(vertx, c);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    return FetchAndParse.fetch(vertx, source, null, p -> {
      try (InputStream in = p.open()) {
        return parse(in, p.origin());
      }
    });
  }

  static PayloadSource source(Vertx vertx, JsonObject c) {
    ConfigSchema.Section fx = ConfigSchema.section("fx", PlainValues.map(c));
    String url = fx.text("source").isBlank() ? DAILY_URL : fx.text("source");
    return PayloadSource.of(vertx, url, fx.duration("timeout"), c.getJsonObject("headers"));
  }

  /** Parses a payload held in memory; {@code where} (URL or file) is cited in every rate's source. */
  public static FxHistory parse(Buffer payload, String where) {
    return parse(new ByteArrayInputStream(payload.getBytes()), where);
  }

  /**
   * Parses an ECB reference-rates XML document: every day with its rates. A rate that is not a
   * positive number, a day whose date does not parse or a day without rates is skipped and listed
   * in {@link FxHistory#rejected()}.
   *
   * @throws IllegalArgumentException when the payload is not well-formed XML or holds no
   *                                  {@code <Cube time=...>} day with rates
   */
  public static FxHistory parse(InputStream in, String where) {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    Map<LocalDate, Map<String, BigDecimal>> days = new TreeMap<>();
    List<String> rejected = new ArrayList<>();
    int timeCubes = 0;
    XMLStreamReader r = null;
    try {
      r = f.createXMLStreamReader(in);
      LocalDate day = null;        // the open <Cube time=...>, null outside one or when its date is bad
      int dayDepth = -1;
      int depth = 0;
      while (r.hasNext()) {
        int ev = r.next();
        if (ev == XMLStreamConstants.END_ELEMENT) {
          if (depth == dayDepth) {
            if (day != null && days.get(day).isEmpty()) {
              days.remove(day);
              rejected.add("day " + day + ": no rates");
            }
            day = null;
            dayDepth = -1;
          }
          depth--;
          continue;
        }
        if (ev != XMLStreamConstants.START_ELEMENT) continue;
        depth++;
        if (!"Cube".equals(r.getLocalName())) continue;
        String time = r.getAttributeValue(null, "time");
        String currency = r.getAttributeValue(null, "currency");
        if (time != null) {
          timeCubes++;
          dayDepth = depth;
          try {
            day = LocalDate.parse(time.trim());
            days.computeIfAbsent(day, d -> new LinkedHashMap<>());
          } catch (DateTimeParseException e) {
            day = null;
            rejected.add("Cube time='" + time + "' (line " + r.getLocation().getLineNumber() + "): not a date");
          }
        } else if (currency != null && day != null) {
          String rate = r.getAttributeValue(null, "rate");
          String at = "day " + day + " " + currency;
          BigDecimal v = Decimals.of(rate);
          if (v == null) rejected.add(at + ": " + Decimals.notANumber("rate", rate));
          else if (v.signum() <= 0) rejected.add(at + ": rate " + rate + " is not > 0");
          else days.get(day).put(currency.trim(), v);
        }
      }
    } catch (XMLStreamException e) {
      throw new IllegalArgumentException(where + ": not readable as ECB reference-rates XML: " + e.getMessage(), e);
    } finally {
      if (r != null) {
        try {
          r.close();
        } catch (XMLStreamException ignored) {
          // nothing left to release
        }
      }
    }
    if (timeCubes == 0) throw new IllegalArgumentException(where + ": no <Cube time='YYYY-MM-DD'> element: not ECB reference rates");
    if (days.isEmpty()) throw new IllegalArgumentException(where + ": no day with rates: " + rejected);
    return new FxHistory("EUR", new TreeMap<>(days), FEED, where, rejected);
  }
}
