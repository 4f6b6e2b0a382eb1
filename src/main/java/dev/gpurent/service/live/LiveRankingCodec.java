package dev.gpurent.service.live;

import dev.gpurent.service.live.LiveRankingJson.Piece;
import dev.gpurent.service.live.LiveRankingUpdate.ApiStanding;
import dev.gpurent.service.live.LiveRankingUpdate.Standing;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageCodec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Carries a {@link LiveRankingUpdate}: by reference on the node (the HTTP verticles and the
 * AlertVerticle read the RankingVerticle's very object, with the renderings it gathers), and across
 * nodes as one JSON document, its length first: the typed fields (totals as decimal strings, so
 * their scale survives) and the neutral JSON of each piece the clients' JSON is rendered from. A
 * decoded update renders the same text as the one sent ({@code LiveRankingCodecTest}); its pieces
 * are new, so a dashboard's first delta after one is whole.
 */
public final class LiveRankingCodec implements MessageCodec<LiveRankingUpdate, LiveRankingUpdate> {

  /** Makes it the event bus's codec for updates; a second call (another verticle of the same Vert.x) changes nothing. */
  public static void register(EventBus bus) {
    try {
      bus.registerDefaultCodec(LiveRankingUpdate.class, new LiveRankingCodec());
    } catch (IllegalStateException alreadyRegistered) {
      // another verticle of this Vert.x instance registered it first
    }
  }

  @Override
  public void encodeToWire(Buffer buffer, LiveRankingUpdate u) {
    byte[] bytes = toJson(u).encode().getBytes(StandardCharsets.UTF_8);
    buffer.appendInt(bytes.length).appendBytes(bytes);
  }

  @Override
  public LiveRankingUpdate decodeFromWire(int pos, Buffer buffer) {
    int length = buffer.getInt(pos);
    return fromJson(new JsonObject(buffer.getString(pos + 4, pos + 4 + length, StandardCharsets.UTF_8.name())));
  }

  @Override
  public LiveRankingUpdate transform(LiveRankingUpdate u) {
    return u;  // immutable but for its renderings' caches, which are safe to share
  }

  @Override
  public String name() {
    return "gpurent-live-ranking";
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }

  static JsonObject toJson(LiveRankingUpdate u) {
    JsonObject o = new JsonObject().put("scenario", u.scenario()).put("status", u.status()).put("error", u.error())
        .put("quotesAt", u.quotesAt() == null ? null : u.quotesAt().toString()).put("currency", u.currency());
    JsonArray plans = new JsonArray();
    u.plans().forEach(p -> plans.add(standing(p)));
    o.put("plans", plans).put("mixedTotal", u.mixedTotal().map(BigDecimal::toPlainString).orElse(null))
        .put("reference", u.reference().map(LiveRankingCodec::standing).orElse(null)).put("unavailable", new JsonArray(u.unavailable()));
    JsonArray apis = new JsonArray();
    for (ApiStanding a : u.apis()) {
      apis.add(new JsonObject().put("workload", a.workload()).put("provider", a.provider()).put("monthly", a.monthly().toPlainString())
          .put("rented", a.rented().toPlainString()).put("vendor", a.vendor()));
    }
    o.put("apis", apis);
    LiveRankingJson json = u.json();
    if (json != null && json.literal() == null) {
      JsonArray pieces = new JsonArray();
      for (int i = 0; i < json.plans().size(); i++) {
        pieces.add(new JsonObject().put("vendor", json.plans().get(i).vendor).put("json", json.planJson(i)));
      }
      o.put("json", new JsonObject().put("rest", json.restJson()).put("plans", pieces).put("mixed", json.mixedJson())
          .put("reference", json.referenceJson()).put("quotesAt", json.quotesAt()));
    }
    return o;
  }

  static LiveRankingUpdate fromJson(JsonObject o) {
    String scenario = o.getString("scenario");
    int status = o.getInteger("status");
    if (status != LiveRankingUpdate.OK) return LiveRankingUpdate.failure(scenario, status, o.getString("error"));
    List<Standing> plans = new ArrayList<>();
    for (Object p : o.getJsonArray("plans")) plans.add(standing((JsonObject) p));
    List<ApiStanding> apis = new ArrayList<>();
    for (Object x : o.getJsonArray("apis")) {
      JsonObject a = (JsonObject) x;
      apis.add(new ApiStanding(a.getString("workload"), a.getString("provider"), new BigDecimal(a.getString("monthly")),
          new BigDecimal(a.getString("rented")), a.getString("vendor")));
    }
    List<String> unavailable = new ArrayList<>();
    o.getJsonArray("unavailable").forEach(v -> unavailable.add((String) v));
    String at = o.getString("quotesAt");
    return new LiveRankingUpdate(scenario, status, null, at == null ? null : Instant.parse(at), o.getString("currency"), plans,
        Optional.ofNullable(o.getString("mixedTotal")).map(BigDecimal::new), Optional.ofNullable(o.getJsonObject("reference"))
        .map(LiveRankingCodec::standing), unavailable, apis, json(scenario, o.getJsonObject("json")));
  }

  private static LiveRankingJson json(String scenario, JsonObject j) {
    if (j == null) return null;
    List<Piece> plans = new ArrayList<>();
    for (Object x : j.getJsonArray("plans")) {
      JsonObject p = (JsonObject) x;
      plans.add(Piece.decoded(p.getString("json"), p.getString("vendor")));
    }
    String mixed = j.getString("mixed"), reference = j.getString("reference");
    return LiveRankingJson.decoded(scenario, Piece.decoded(j.getString("rest"), null), plans, mixed == null ? null : Piece.decoded(mixed, null),
        reference == null ? null : Piece.decoded(reference, null), j.getString("quotesAt"));
  }

  private static JsonObject standing(Standing s) {
    return new JsonObject().put("vendor", s.vendor()).put("rank", s.rank()).put("monthlyTotal", s.monthlyTotal().toPlainString())
        .put("currency", s.currency()).put("dated", s.dated()).put("complete", s.complete());
  }

  private static Standing standing(JsonObject s) {
    return new Standing(s.getString("vendor"), s.getInteger("rank"), new BigDecimal(s.getString("monthlyTotal")), s.getString("currency"),
        s.getBoolean("dated"), s.getBoolean("complete"));
  }
}
