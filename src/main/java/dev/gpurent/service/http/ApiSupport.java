package dev.gpurent.service.http;

import dev.gpurent.service.Addresses;
import dev.gpurent.service.Failures;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import dev.gpurent.config.PlainValues;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.jackson.JacksonCodec;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What every resource's routes share: JSON answers, request bodies, query parameters, the quote book. */
final class ApiSupport {

  static final String JSON = "application/json; charset=utf-8";
  /** Bodies at least this large are decoded on a worker: a 64 KB body is milliseconds of the HTTP loop that /health waits behind. */
  private static final int DECODE_OFF_LOOP_BYTES = 16 * 1024;
  private static final Pattern JSON_ERROR_AT = Pattern.compile("line: (\\d+), column: (\\d+)");

  private ApiSupport() {}

  static void json(RoutingContext rc, int status, String body) {
    rc.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, JSON).end(body);
  }

  /** The book as it stands, or a 503 failure while the first fetch is under way. */
  static Future<QuoteBook> book(Vertx vertx) {
    return vertx.eventBus().<QuoteBook>request(Addresses.QUOTES_BOOK, null).map(m -> m.body())
        .compose(b -> b == null ? Future.failedFuture(new Failures.Refused(503, "no quotes yet: the first fetch is under way"))
            : Future.succeededFuture(b));
  }

  /** Runs {@code then} with the request body as a JSON object, or answers 400 naming (body). */
  static void withBody(Vertx vertx, RoutingContext rc, Consumer<JsonObject> then) {
    Buffer b = rc.body().buffer();
    if (b == null || b.length() == 0) {
      HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem("(body)", "a JSON object is required")));
      return;
    }
    Future<Object> parsed = b.length() < DECODE_OFF_LOOP_BYTES ? Future.succeededFuture(b).map(ApiSupport::decode)
        : vertx.executeBlocking(() -> decode(b), false);
    parsed.onComplete(ar -> {
      if (ar.failed() && ar.cause() instanceof DuplicateField d) {
        HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem(d.field, "given twice: give each field once")));
      } else if (ar.failed()) {
        // Jackson's message names its own classes and features: say where, not why in its terms.
        Matcher at = JSON_ERROR_AT.matcher(String.valueOf(ar.cause().getMessage()));
        String where = at.find() ? " (at line " + at.group(1) + ", column " + at.group(2) + ")" : "";
        HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem("(body)", "not valid JSON" + where)));
      } else if (!(ar.result() instanceof JsonObject o)) {
        HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem("(body)", "must be a JSON object")));
      } else {
        then.accept(o);
      }
    });
  }

  /** A field named twice in one object of a body: which one, as the readers name fields ({@code workloads[0].peakQps}). */
  private static final class DuplicateField extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String field;

    DuplicateField(String field) {
      super(field, null, false, false);
      this.field = field;
    }
  }

  /**
   * A body as JSON with duplicate field names refused: Jackson would keep the last silently, so that
   * what a client's reviewer read ({@code "peakQps": 5}) is not what was ranked ({@code "peakQps": 500}).
   */
  static Object decode(Buffer body) {
    JsonParser parser = JacksonCodec.createParser(body);
    parser.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    try {
      return JacksonCodec.fromParser(parser, Object.class);
    } catch (DecodeException e) {
      if (e.getCause() instanceof JsonParseException p && String.valueOf(p.getOriginalMessage()).startsWith("Duplicate field")) {
        throw new DuplicateField(fieldAt(parser.getParsingContext()));
      }
      throw e;
    }
  }

  /** The path of the field a parser stands on. */
  private static String fieldAt(JsonStreamContext at) {
    java.util.Deque<String> parts = new java.util.ArrayDeque<>();
    for (JsonStreamContext c = at; c != null && !c.inRoot(); c = c.getParent()) {
      parts.push(c.inArray() ? "[" + c.getCurrentIndex() + "]" : String.valueOf(c.getCurrentName()));
    }
    StringBuilder b = new StringBuilder();
    for (String p : parts) b.append(b.length() == 0 || p.startsWith("[") ? "" : ".").append(p);
    return shown(b.toString());
  }

  static boolean accepts(RoutingContext rc, String type) {
    String accept = rc.request().getHeader(HttpHeaders.ACCEPT);
    return accept != null && accept.toLowerCase(Locale.ROOT).contains(type);
  }

  /**
   * A whole-number query parameter in [{@code min}, {@code max}], {@code dflt} when absent; a bad
   * one is answered 400 naming it, and the result is empty.
   */
  static OptionalInt intParam(RoutingContext rc, String name, int dflt, int min, int max) {
    String v = rc.queryParams().get(name);
    if (v == null) return OptionalInt.of(dflt);
    try {
      int n = Integer.parseInt(v.trim());
      if (n >= min && n <= max) return OptionalInt.of(n);
    } catch (NumberFormatException notANumber) {
      // answered below
    }
    HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem(name,
        "must be a whole number from " + min + " to " + max + ", got '" + shown(v) + "'")));
    return OptionalInt.empty();
  }

  /**
   * The language a request asks for: {@code ?lang=} first (an unknown one fails naming the field and
   * the known languages), then {@code Accept-Language}, else English.
   *
   * @throws InvalidInputException for an unknown {@code lang}
   */
  static Lang lang(HttpServerRequest req) {
    String q = req.getParam("lang");
    if (q != null) {
      try {
        return Lang.of(q);
      } catch (IllegalArgumentException e) {
        throw new InvalidInputException(List.of(new InvalidInputException.Problem("lang", e.getMessage())));
      }
    }
    return Lang.fromAcceptLanguage(req.getHeader(HttpHeaders.ACCEPT_LANGUAGE));
  }

  /** As above, answering 400 and giving null for an unknown {@code lang}. */
  static Lang lang(RoutingContext rc) {
    try {
      return lang(rc.request());
    } catch (InvalidInputException e) {
      HttpErrors.invalid(rc, e.problems());
      return null;
    }
  }

  /** An engine map (messages in their neutral form) as a client reads it: every message in {@code lang}, and "lang" first. */
  static String rendered(Map<String, ?> neutral, Lang lang) {
    return Json.encode(Localizer.page(neutral, lang));
  }

  /** As below, on a worker when the text is large: a ranking of every vendor is tens of KB to decode and encode again. */
  static Future<String> rendered(Vertx vertx, String neutralJson, Lang lang) {
    return neutralJson.length() < DECODE_OFF_LOOP_BYTES ? Future.succeededFuture(rendered(neutralJson, lang))
        : vertx.executeBlocking(() -> rendered(neutralJson, lang), false);
  }

  /** A JSON object's text (an engine map, encoded on the bus) rendered in {@code lang}; any other JSON as it is. */
  @SuppressWarnings("unchecked")
  static String rendered(String neutralJson, Lang lang) {
    Object tree = PlainValues.parse(neutralJson);
    return tree instanceof Map<?, ?> m ? rendered((Map<String, ?>) m, lang) : neutralJson;
  }

  /** Request text as an error message repeats it: cut short. */
  static String shown(String s) {
    return s == null ? "" : s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }
}
