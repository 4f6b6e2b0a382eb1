package dev.gpurent.service.quotes;

import dev.gpurent.adapter.EcbFxAdapter;
import dev.gpurent.config.PlainValues;
import dev.gpurent.quote.FxHistory;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.SpotRisk;
import dev.gpurent.service.QuoteSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;

/**
 * The FX rates and spot interruption rates every book carries, read by every node on their own
 * schedule: a failed read keeps the last ones, and only a read that says something new is a change.
 */
final class MarketRates {

  private final Vertx vertx;
  private final QuoteSettings settings;
  private final JsonObject fxConfig;
  /** Called on the verticle's event loop after the rates changed. */
  private final Runnable changed;
  private FxRates fx;
  private SpotRisk spotRisk;
  /** Moves only when the spot rates read say something new (a re-read of the same feed is no change). */
  private long spotVersion;

  /** Starts from {@code fx.fallback} (or no rates but USD) until the feed answers. */
  MarketRates(Vertx vertx, QuoteSettings settings, JsonObject fxConfig, Runnable changed) {
    JsonObject fallback = fxConfig.getJsonObject("fallback");
    this.fx = fallback == null ? FxRates.none("USD") : FxRates.fallback(PlainValues.map(fallback));
    this.vertx = vertx;
    this.settings = settings;
    this.fxConfig = fxConfig;
    this.changed = changed;
  }

  FxRates fx() {
    return fx;
  }

  /** The spot rates read, or null. */
  SpotRisk spotRisk() {
    return spotRisk;
  }

  /** What a book's published state holds of the spot rates: moves when they say something new. */
  String spotState() {
    return spotRisk == null ? "" : spotRisk.source() + " " + spotVersion;
  }

  /** Reads the FX feed; on failure the last rates stay (at first, the fallback table). */
  Future<FxRates> refreshFx() {
    String src = fxConfig.getString("source", EcbFxAdapter.DAILY_URL);
    if (settings.offline() && (src.startsWith("http://") || src.startsWith("https://"))) return Future.succeededFuture(fx);
    return EcbFxAdapter.fetch(vertx, fxConfig).map(FxHistory::latest)
        .onSuccess(rates -> {
          if (rates.sameRates(fx)) return;  // the same object then: BookChange sees an FX change by identity
          fx = rates;
          changed.run();
        });
  }

  /** Reads the spot interruption rates (AWS Spot Advisor); on failure the last ones stay, or none. */
  Future<?> refreshSpotRisk() {
    String src = settings.spotRiskSource();
    if (src.isEmpty() || (settings.offline() && (src.startsWith("http://") || src.startsWith("https://")))) {
      return Future.succeededFuture();
    }
    return dev.gpurent.adapter.AwsSpotAdvisorAdapter.fetch(vertx, src, Duration.ofMinutes(1))
        .onSuccess(risk -> {
          // the same bands keep the same object: a book's change of spot rates is seen by identity (BookChange),
          // and a new object with the same rates would have every live scenario priced again in full
          if (risk.sameBands(spotRisk)) return;
          spotVersion++;
          spotRisk = risk;
          changed.run();
        });
  }
}
