package dev.gpurent.service.quotes;

import dev.gpurent.adapter.PayloadSource;
import dev.gpurent.adapter.VendorAdapter;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.service.QuoteSettings;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.circuitbreaker.CircuitBreakerOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/** One vendor's adapter, breaker and refresh history; touched only on the quote verticle's event loop. */
final class VendorState {
  final VendorDefinition def;
  final VendorAdapter adapter;
  final CircuitBreaker breaker;
  final boolean http;
  final String source;
  Instant lastSuccess;
  Instant lastAttempt;
  Instant lastErrorAt;
  String lastError;
  /** Why the vendor's quotes were dropped: its source says they expired (see QuoteExpiredException); null otherwise. */
  String expired;
  /** Something about this vendor's saved quotes an operator should know (a corrupt last good file), kept until restart. */
  String notice;
  boolean fromCache;
  long refreshes;
  long failures;
  Future<VendorQuotes> inFlight;
  /** The last write of its last good file: the next one waits for it, so that an older payload never lands last. */
  Future<?> saving = Future.succeededFuture();
  /** The payload the book last held, and a number that moves only when a payload says something new. */
  VendorQuotes seen;
  long version;
  /** The distinct dates its prices state: a plan's "prices dated" verdict moves with their age in days. */
  Set<Instant> priceDates = Set.of();

  /** The vendor with its breaker: {@code maxFailures} in a row open it, each call cut at the vendor's fetch timeout. */
  VendorState(Vertx vertx, VendorDefinition def, VendorAdapter adapter, QuoteSettings settings) {
    String src = def.config().getString("source", "");
    this.http = src.startsWith("http://") || src.startsWith("https://");
    this.source = PayloadSource.redact(src);
    this.breaker = CircuitBreaker.create("vendor-" + def.vendor(), vertx, new CircuitBreakerOptions()
        .setMaxFailures(settings.maxFailures()).setTimeout(PayloadSource.fetchTimeout(def).toMillis())
        .setResetTimeout(settings.resetTimeout().toMillis()).setNotificationAddress(null));
    this.def = def;
    this.adapter = adapter;
  }

  /** Quotes that came in good at {@code at} (fetched here or by another node): whatever failed before is over. */
  void succeeded(Instant at) {
    lastSuccess = at;
    lastError = null;
    expired = null;
    fromCache = false;
  }

  /** Fresh, stale (a failure since the last success, or quotes from a file) or expired, by the age of the last success. */
  Freshness freshness(Instant now, Duration expireAfter) {
    Duration age = lastSuccess == null ? Duration.ZERO : Duration.between(lastSuccess, now);
    if (age.compareTo(expireAfter) > 0) return new Freshness(Freshness.State.EXPIRED, age);
    boolean failedSince = lastErrorAt != null && !lastErrorAt.isBefore(lastSuccess);
    if (failedSince || fromCache) return new Freshness(Freshness.State.STALE, age);
    return new Freshness(Freshness.State.FRESH, age);
  }
}
