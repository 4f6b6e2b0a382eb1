package dev.gpurent.service;

import dev.gpurent.cost.InvalidInputException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * The one way an HTTP answer fails: a status and {@code {"error", "fields"?}} as JSON, built by
 * {@link Failures#body}. A 503 says when to come back ({@code Retry-After}). Failures from the
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
    send(rc.response(), 400, Failures.body("invalid input", problems));
  }

  /** Answers with what a failure (of a bus request, or local) says: its status and body. */
  static void fail(RoutingContext rc, Throwable e) {
    send(rc.response(), Failures.status(e), Failures.bodyOf(e));
  }

  static void send(HttpServerResponse response, int status, JsonObject body) {
    if (response.ended() || response.closed()) return;
    if (status == 503 || status == 429) response.putHeader(HttpHeaders.RETRY_AFTER, Integer.toString(RETRY_AFTER_SECONDS));
    response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, HttpVerticle.JSON).end(body.encode());
  }
}
