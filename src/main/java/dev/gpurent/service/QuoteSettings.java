package dev.gpurent.service;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Locale;

/**
 * The {@code quotes:} section of the configuration, with its defaults.
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
    JsonObject q = quotes == null ? new JsonObject() : quotes;
    JsonObject breaker = q.getJsonObject("breaker", new JsonObject());
    return new QuoteSettings(duration(q, "expireAfter", "24h"), breaker.getInteger("maxFailures", 3),
        duration(breaker, "resetTimeout", "60s"), duration(q, "freshnessCheck", "1m"), q.getString("cacheDir", "data/last-good"),
        q.getBoolean("offline", false), duration(q, "fxRefresh", "12h"),
        q.getString("spotRisk", dev.gpurent.adapter.AwsSpotAdvisorAdapter.URL));
  }

  public QuoteSettings withOffline(boolean offline) {
    return new QuoteSettings(expireAfter, maxFailures, resetTimeout, freshnessCheck, cacheDir, offline, fxRefresh, spotRiskSource);
  }

  public QuoteSettings withCacheDir(String dir) {
    return new QuoteSettings(expireAfter, maxFailures, resetTimeout, freshnessCheck, dir, offline, fxRefresh, spotRiskSource);
  }

  static Duration duration(JsonObject o, String key, String dflt) {
    return dev.gpurent.config.Durations.parse("quotes." + key, String.valueOf(o.getValue(key, dflt)));
  }

}
