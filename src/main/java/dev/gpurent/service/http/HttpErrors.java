package dev.gpurent.service.http;

import dev.gpurent.service.Failures;

import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * The one way an HTTP answer fails: a status and {@code {"error", "fields"?}} as JSON, built by
 * {@link Failures#body}. A 503 or 429 says when to come back ({@code Retry-After}: a second, unless
 * the answer set its own). Failures from the
 * event bus keep their status and body.
 */
final class HttpErrors {

  /** Seconds a client told 503 waits before trying again. */
  static final int RETRY_AFTER_SECONDS = 1;

  private HttpErrors() {}

  static void send(RoutingContext rc, int status, String error) {
    send(rc.response(), status, Failures.body(error, null));
  }

  static void invalid(RoutingContext rc, List<InvalidInputException.Problem> problems) {
    send(rc.response(), 400, inLanguage(Failures.body(INVALID, problems), rc));
  }

  /** Answers with what a failure (of a bus request, or local) says: its status and body. */
  static void fail(RoutingContext rc, Throwable e) {
    send(rc.response(), Failures.status(e), inLanguage(Failures.bodyOf(e), rc));
  }

  private static final String INVALID = "invalid input";

  /**
   * A failure's body in the request's language: the error and each field reason that came with its
   * message rendered from it (and the message dropped), "invalid input" said too. English stays as sent.
   */
  static JsonObject inLanguage(JsonObject body, RoutingContext rc) {
    if (!(body.getValue("fields") instanceof JsonArray) && !body.containsKey(Failures.MESSAGE)) return body;
    Lang lang;
    try {
      lang = ApiSupport.lang(rc.request());
    } catch (InvalidInputException unknownLanguage) {
      lang = Lang.EN;  // the 400 that says so is answered in English
    }
    Object error = body.remove(Failures.MESSAGE);
    if (error != null && lang != Lang.EN) body.put("error", Localizer.text(error instanceof JsonObject j ? j.getMap() : error, lang));
    JsonArray fields = body.getValue("fields") instanceof JsonArray f ? f : new JsonArray();
    for (Object o : fields) {
      if (!(o instanceof JsonObject f)) continue;
      Object message = f.remove(Failures.MESSAGE);
      if (message != null && lang != Lang.EN) {
        Object plain = message instanceof JsonObject j ? j.getMap() : message;
        f.put("reason", Localizer.text(plain, lang));
      }
    }
    if (lang != Lang.EN && INVALID.equals(body.getString("error"))) {
      body.put("error", Localizer.text(dev.gpurent.text.Message.of("input.invalid"), lang));
    }
    return body;
  }

  static void send(HttpServerResponse response, int status, JsonObject body) {
    if (response.ended() || response.closed()) return;
    if ((status == 503 || status == 429) && !response.headers().contains(HttpHeaders.RETRY_AFTER)) {
      response.putHeader(HttpHeaders.RETRY_AFTER, Integer.toString(RETRY_AFTER_SECONDS));
    }
    response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, HttpVerticle.JSON).end(body.encode());
  }
}
