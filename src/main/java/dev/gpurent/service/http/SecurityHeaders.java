package dev.gpurent.service.http;

import io.vertx.core.http.HttpServerResponse;

/**
 * The headers every answer carries, so that a browser holding the dashboard (and its admin token
 * field) runs nothing but the service's own files and shows them in no one else's frame:
 * <ul>
 *   <li>{@code Content-Security-Policy}: scripts, styles, fonts and connections (fetch, the
 *       dashboard's WebSocket) from this origin only, images also as {@code data:} (the page's empty
 *       icon, Swagger UI's); nothing inline (the dashboard has no inline script or style, and sets
 *       its colour swatches through the CSSOM), no plug-ins, no {@code <base>}, forms post here;
 *       {@code frame-ancestors 'none'}: no framing (clickjacking);
 *   <li>{@code X-Frame-Options: DENY}, the same for browsers without CSP level 2;
 *   <li>{@code X-Content-Type-Options: nosniff}: a JSON or CSV answer is never run as a script;
 *   <li>{@code Referrer-Policy: no-referrer}: scenario ids in URLs stay here.
 * </ul>
 */
public final class SecurityHeaders {

  public static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self';"
      + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

  private SecurityHeaders() {}

  static void add(HttpServerResponse response) {
    response.headers()
        .set("Content-Security-Policy", CSP)
        .set("X-Frame-Options", "DENY")
        .set("X-Content-Type-Options", "nosniff")
        .set("Referrer-Policy", "no-referrer");
  }
}
