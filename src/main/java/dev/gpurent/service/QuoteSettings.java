package dev.gpurent.service;

import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.PlainValues;
import io.vertx.core.json.JsonObject;
import java.time.Duration;

/**
 * The {@code quotes:} section of the configuration (its keys, defaults and ranges: {@link ConfigSchema}).
 *
 * @param expireAfter     past this age without a successful refresh, a vendor's quotes leave the ranking
 * @param maxFailures     consecutive failures that open a vendor's circuit breaker
 * @param resetTimeout    how long an open breaker waits before letting one try through
 * @param freshnessCheck  how often freshness is re-evaluated between refreshes
 * @param cacheDir        where each vendor's last good quotes are kept across restarts ("" for nowhere)
 * @param offline         fetch only file sources; http vendors answer from the cache, stale
 * @param fxRefresh       how often the FX feed (and the spot interruption rates) are read
 * @param spotRiskSource  the AWS Spot Advisor feed (URL or file) pricing spot interruptions; "" for none
 */
public record QuoteSettings(Duration expireAfter, int maxFailures, Duration resetTimeout, Duration freshnessCheck,
                            String cacheDir, boolean offline, Duration fxRefresh, String spotRiskSource) {

  public static QuoteSettings from(JsonObject quotes) {
    ConfigSchema.Section q = ConfigSchema.section("quotes", PlainValues.map(quotes));
    ConfigSchema.Section breaker = q.section("breaker");
    return new QuoteSettings(q.duration("expireAfter"), breaker.whole("maxFailures"), breaker.duration("resetTimeout"),
        q.duration("freshnessCheck"), q.text("cacheDir"), q.flag("offline"), q.duration("fxRefresh"), q.text("spotRisk"));
  }

  public QuoteSettings withOffline(boolean offline) {
    return new QuoteSettings(expireAfter, maxFailures, resetTimeout, freshnessCheck, cacheDir, offline, fxRefresh, spotRiskSource);
  }

  public QuoteSettings withCacheDir(String dir) {
    return new QuoteSettings(expireAfter, maxFailures, resetTimeout, freshnessCheck, dir, offline, fxRefresh, spotRiskSource);
  }

}
