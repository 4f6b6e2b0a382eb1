package dev.gpurent.service.http;

import dev.gpurent.service.HttpSettings;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.Set;

/**
 * What every request passes before anything else reads it, so that no page a user opens
 * elsewhere can drive the service:
 * <ul>
 *   <li>its {@code Host} names this service ({@code http.hostnames}): a page on a DNS name
 *       rebound to 127.0.0.1 is its own origin, and only the Host gives it away (421);
 *   <li>a state-changing request (POST, PUT, PATCH, DELETE) or a WebSocket upgrade that carries an
 *       {@code Origin} comes from the service's own origin or one of {@code http.allowedOrigins}
 *       (403); requests without one (curl, the command line, same-origin GETs) pass;
 *   <li>a request body is JSON ({@code Content-Type: application/json}, or {@code +json}): a
 *       cross-site form can only send text/plain, urlencoded or multipart (415). The one upload
 *       route, {@link #MULTIPART_ROUTE}, takes multipart: it also needs the admin's bearer token,
 *       which no cross-site form can send.
 * </ul>
 */
final class RequestGuard {

  /** The quote-sheet upload: multipart, behind the admin token. */
  static final String MULTIPART_ROUTE = "/api/admin/quote-sheets";

  private final Set<String> hostnames;
  private final Set<String> allowedOrigins;

  RequestGuard(HttpSettings settings) {
    this.hostnames = settings.hostnames();
    this.allowedOrigins = settings.allowedOrigins();
  }

  /** True when the request may go on; otherwise it has been answered. */
  boolean admit(HttpServerRequest req) {
    String host = req.getHeader(HttpHeaders.HOST);
    if (host != null && !hostnames.contains(hostName(host))) {
      return refuse(req, 421, "this service does not answer to the host name in the request; add it to http.hostnames");
    }
    HttpMethod m = req.method();
    boolean changes = m == HttpMethod.POST || m == HttpMethod.PUT || m == HttpMethod.PATCH || m == HttpMethod.DELETE;
    boolean upgrade = "/ws".equals(req.path());
    String origin = req.getHeader(HttpHeaders.ORIGIN);
    if ((changes || upgrade) && origin != null && !sameOrigin(origin, host)) {
      return refuse(req, 403, "cross-origin requests are refused; add the origin to http.allowedOrigins");
    }
    if (changes && hasBody(req) && !isJson(req.getHeader(HttpHeaders.CONTENT_TYPE))
        && !(MULTIPART_ROUTE.equals(req.path()) && isMultipart(req.getHeader(HttpHeaders.CONTENT_TYPE)))) {
      return refuse(req, 415, "request bodies must be JSON (Content-Type: application/json)");
    }
    return true;
  }

  private boolean sameOrigin(String origin, String host) {
    String o = origin.trim().toLowerCase(Locale.ROOT);
    if (allowedOrigins.contains(o)) return true;
    if (host == null) return false;
    String h = host.trim().toLowerCase(Locale.ROOT);
    return o.equals("http://" + h) || o.equals("https://" + h);
  }

  /** The name part of a Host header, lowercase: {@code localhost:8080} gives localhost, {@code [::1]:80} gives [::1]. */
  static String hostName(String host) {
    String h = host.trim().toLowerCase(Locale.ROOT);
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      return end < 0 ? h : h.substring(0, end + 1);
    }
    int colon = h.indexOf(':');
    return colon < 0 ? h : h.substring(0, colon);
  }

  private static boolean hasBody(HttpServerRequest req) {
    String length = req.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (length != null) return !length.trim().equals("0");
    return req.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
  }

  static boolean isMultipart(String contentType) {
    return contentType != null && contentType.trim().toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
  }

  static boolean isJson(String contentType) {
    if (contentType == null) return false;
    String type = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
  }

  private static boolean refuse(HttpServerRequest req, int status, String error) {
    // The body is not read: the connection closes after the answer instead of draining it.
    req.response().putHeader(HttpHeaders.CONNECTION, "close");
    HttpErrors.send(req.response(), status, new JsonObject().put("error", error));
    return false;
  }
}
