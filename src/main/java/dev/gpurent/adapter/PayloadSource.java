package dev.gpurent.adapter;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpResponseExpectation;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.codec.BodyCodec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Where a vendor's payload comes from: an http(s) URL (read with the WebClient) or a file
 * (read with the async file system). Vendor YAML keys: {@code source} (URL or path, relative
 * paths from the working directory), {@code timeout} (default 60s), {@code headers} (a map;
 * a value {@code env:NAME} is read from the environment and never logged; a prefix is kept,
 * so {@code "Bearer env:NAME"} sends {@code Bearer <value of NAME>}).
 */
public final class PayloadSource {

  private final Vertx vertx;
  private final String source;
  private final long timeoutMs;
  private final JsonObject headers;
  /** What a file source is cited relative to: the vendor's root, else the working directory. */
  private final Path citedFrom;
  private WebClient client;

  private PayloadSource(Vertx vertx, String source, long timeoutMs, JsonObject headers, Path citedFrom) {
    this.vertx = vertx;
    this.source = source;
    this.timeoutMs = timeoutMs;
    this.headers = headers;
    this.citedFrom = citedFrom;
  }

  /** The vendor's {@code timeout} (default 60s): for the HTTP request and the circuit breaker alike. */
  public static Duration timeout(VendorDefinition def) {
    return VendorDefinition.duration(def.where(), def.config().getValue("timeout", "60s").toString());
  }

  /**
   * How long one whole fetch may take, for the circuit breaker: the vendor's {@code fetchTimeout}
   * when it has one (APIs that need many requests per fetch, each bounded by {@code timeout}),
   * else its {@code timeout}.
   */
  public static Duration fetchTimeout(VendorDefinition def) {
    Object v = def.config().getValue("fetchTimeout");
    return v == null ? timeout(def) : VendorDefinition.duration(def.where(), v.toString());
  }

  /** A source as it may be shown: without a query string, which may carry an API key. */
  public static String redact(String source) {
    int q = source.indexOf('?');
    if (q < 0) return source.startsWith("http://") || source.startsWith("https://") ? source : dev.gpurent.config.UserText.relative(source);
    return source.substring(0, q) + "?…";
  }

  /** Reads the {@code source}, {@code timeout} and {@code headers} keys of a vendor definition. */
  public static PayloadSource of(Vertx vertx, VendorDefinition def) {
    String src = def.config().getString("source");
    if (src == null || src.isBlank()) VendorDefinition.fail(def.where(), "source", "is required: a URL or a file path");
    Duration timeout = timeout(def);
    return new PayloadSource(vertx, src.trim(), timeout.toMillis(), def.config().getJsonObject("headers", new JsonObject()),
        dev.gpurent.config.UserText.rootOf(def.where()));
  }

  /**
   * A source that is not a vendor definition (e.g. the FX feed): {@code source} is a URL or a
   * file path, {@code headers} may be null (same {@code env:NAME} rule as the YAML key).
   */
  public static PayloadSource of(Vertx vertx, String source, Duration timeout, JsonObject headers) {
    if (source == null || source.isBlank()) throw new IllegalArgumentException("source is required: a URL or a file path");
    return new PayloadSource(vertx, source.trim(), timeout.toMillis(), headers == null ? new JsonObject() : headers,
        Path.of("").toAbsolutePath());
  }

  /** What fetches the same payload the same way: the source, the timeout and the headers (not their values from the environment). */
  String fetchKey() {
    return source + '\n' + timeoutMs + '\n' + headers.encode();
  }

  public boolean isHttp() {
    return source.startsWith("http://") || source.startsWith("https://");
  }

  /**
   * The URL, or the path as quotes cite it: relative to the vendor's root (the working directory for
   * a source that is no vendor's), never absolute: it is shown to API users and in every export.
   */
  public String describe() {
    return isHttp() ? source : dev.gpurent.config.UserText.relative(citedFrom, source);
  }

  /** The whole payload in memory: for sources of a few MB at most. */
  public Future<Buffer> fetch() {
    if (!isHttp()) return vertx.fileSystem().readFile(source);
    return request().send()
        .expecting(HttpResponseExpectation.SC_SUCCESS)
        .map(r -> r.body() == null ? Buffer.buffer() : r.body());
  }

  /**
   * The whole payload of a POST of {@code body} (sent as JSON), for APIs such as GraphQL that
   * only answer POSTs; a file source is read as {@link #fetch()} reads it and the body ignored.
   */
  public Future<Buffer> fetchPost(Buffer body) {
    if (!isHttp()) return fetch();
    HttpRequest<Buffer> req = request();
    req.method(HttpMethod.POST).putHeader("Content-Type", "application/json");
    return req.sendBuffer(body)
        .expecting(HttpResponseExpectation.SC_SUCCESS)
        .map(r -> r.body() == null ? Buffer.buffer() : r.body());
  }

  /**
   * The whole body of a GET of another absolute http(s) URL with this source's headers and
   * timeout, for paged APIs whose answer links the next page (Azure's {@code NextPageLink}).
   */
  public Future<Buffer> fetchUrl(String url) {
    if (url == null || !(url.startsWith("http://") || url.startsWith("https://"))) {
      return Future.failedFuture(new IllegalArgumentException("not an http(s) URL: " + url));
    }
    return request(url).send()
        .expecting(HttpResponseExpectation.SC_SUCCESS)
        .map(r -> r.body() == null ? Buffer.buffer() : r.body());
  }

  /**
   * The payload as a file, streamed to a temporary file for URLs so that a large payload is
   * never held in memory; the caller deletes it when {@code temporary} is true.
   */
  public Future<Download> download() {
    if (!isHttp()) return Future.succeededFuture(new Download(Path.of(source), false));
    return vertx.fileSystem().createTempFile("gpurent-", ".payload")
        .compose(tmp -> vertx.fileSystem().open(tmp, new OpenOptions().setWrite(true).setTruncateExisting(true))
            .compose(file -> request().as(BodyCodec.pipe(file)).send()
                .expecting(HttpResponseExpectation.SC_SUCCESS)
                .map(r -> new Download(Path.of(tmp), true))
                .onFailure(e -> vertx.fileSystem().delete(tmp))));
  }

  /** A payload on disk. */
  public record Download(Path file, boolean temporary) {}

  private HttpRequest<Buffer> request() {
    return request(source);
  }

  private HttpRequest<Buffer> request(String url) {
    if (client == null) client = WebClient.create(vertx);
    HttpRequest<Buffer> req = client.getAbs(url).timeout(timeoutMs);
    for (Map.Entry<String, Object> h : headers) {
      String v = String.valueOf(h.getValue());
      int at = v.startsWith("env:") ? 0 : v.lastIndexOf(" env:") + 1;  // "env:NAME" or "Bearer env:NAME"
      if (at > 0 || v.startsWith("env:")) v = v.substring(0, at) + System.getenv().getOrDefault(v.substring(at + 4), "");
      req.putHeader(h.getKey(), v);
    }
    return req;
  }
}
