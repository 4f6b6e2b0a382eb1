package dev.gpurent.service;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.config.PlainValues;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.RankingRules;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.report.RankingCsv;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Ranks scenarios against the current QuoteBook: one-off requests, and registered scenarios that
 * are re-ranked whenever a new book is published, their new ranking published only when it
 * changed. Ranking runs on a worker thread: a large book takes milliseconds.
 */
public final class RankingVerticle extends VerticleBase {

  /** At most this many scenarios live at once: each is re-ranked on every quote change. */
  public static final int MAX_SCENARIOS = 1000;

  private final GpuCatalog catalog;
  private final CostModel model;
  private final ScenarioReader reader;
  private final Timer rankingTime;
  private final Map<String, Registered> scenarios = new LinkedHashMap<>();
  private QuoteBook book;

  /** A live scenario and its last ranking: the comparable body, and the message as sent. */
  private static final class Registered {
    final Scenario scenario;
    String comparable;
    String message;

    Registered(Scenario scenario) {
      this.scenario = scenario;
    }
  }

  public RankingVerticle(GpuCatalog catalog, RankingRules rules, MeterRegistry registry) {
    this.catalog = catalog;
    this.model = new CostModel(catalog, rules);
    this.reader = new ScenarioReader(catalog);
    this.rankingTime = Timer.builder("gpurent.ranking.time").description("time to rank one scenario").register(registry);
  }

  @Override
  public Future<?> start() {
    vertx.eventBus().<QuoteBook>consumer(Addresses.QUOTES_CHANGED, msg -> {
      book = msg.body();
      rerankAll();
    });
    vertx.eventBus().<JsonObject>consumer(Addresses.RANKING_COMPUTE, this::compute);
    vertx.eventBus().<JsonObject>consumer(Addresses.SCENARIOS_REGISTER, this::register);
    vertx.eventBus().<JsonObject>consumer(Addresses.SCENARIOS_RANKING, msg -> withScenario(msg, true, r -> msg.reply(r.message)));
    vertx.eventBus().<JsonObject>consumer(Addresses.SCENARIOS_DELETE, msg -> withScenario(msg, false, r -> {
      String id = msg.body().getString("id");
      scenarios.remove(id);
      publish(id, null);
      msg.reply(new JsonObject().put("deleted", id));
    }));
    // The quote pipeline may have published its first book before this verticle listened.
    return vertx.eventBus().<QuoteBook>request(Addresses.QUOTES_BOOK, null)
        .onSuccess(m -> {
          if (book == null) book = m.body();
        })
        .otherwiseEmpty();
  }

  private void compute(Message<JsonObject> msg) {
    JsonObject body = msg.body() == null ? new JsonObject() : msg.body();
    Scenario s = parse(msg, body.getValue("scenario"));
    if (s == null) return;
    if (book == null) {
      msg.fail(503, "no quotes yet: the first fetch is under way");
      return;
    }
    boolean csv = "csv".equals(body.getString("format"));
    // Encoding a ranking takes longer than ranking it: both stay off the event loop, which also
    // answers the cached rankings.
    QuoteBook b = book;
    vertx.executeBlocking(() -> {
      Ranking r = rankingTime.recordCallable(() -> model.rank(s, b));
      return csv ? RankingCsv.render(r) : Json.encode(r.toMap());
    }, false).onSuccess(msg::reply).onFailure(e -> msg.fail(500, String.valueOf(e.getMessage())));
  }

  private void register(Message<JsonObject> msg) {
    Scenario s = parse(msg, msg.body());
    if (s == null) return;
    if (scenarios.size() >= MAX_SCENARIOS) {
      msg.fail(429, "at most " + MAX_SCENARIOS + " live scenarios; delete one first");
      return;
    }
    String id = UUID.randomUUID().toString();
    Registered r = new Registered(s);
    scenarios.put(id, r);
    Future<?> first = book == null ? Future.succeededFuture() : rerank(id, r);
    first.onComplete(x -> msg.reply(new JsonObject().put("id", id)));
  }

  private void withScenario(Message<JsonObject> msg, boolean needsRanking, java.util.function.Consumer<Registered> action) {
    String id = msg.body() == null ? null : msg.body().getString("id");
    Registered r = id == null ? null : scenarios.get(id);
    if (r == null) {
      msg.fail(404, "no live scenario '" + id + "'");
    } else if (needsRanking && r.message == null) {
      msg.fail(503, "no quotes yet: the first fetch is under way");
    } else {
      action.accept(r);
    }
  }

  /** Reads a scenario; on bad input fails the message 400 with a JSON array of {field, reason} and returns null. */
  private Scenario parse(Message<?> msg, Object raw) {
    try {
      return reader.read(PlainValues.of(raw));
    } catch (InvalidInputException e) {
      JsonArray problems = new JsonArray();
      e.problems().forEach(p -> problems.add(new JsonObject().put("field", p.field()).put("reason", p.reason())));
      msg.fail(400, problems.encode());
      return null;
    }
  }

  private void rerankAll() {
    scenarios.forEach(this::rerank);
  }

  /** Ranks one live scenario and publishes the result if it differs from the last one. */
  private Future<?> rerank(String id, Registered r) {
    QuoteBook b = book;
    // Ranking and encoding on a worker, in order (an older book's ranking must not land after a
    // newer one); only the comparison and the publish on the event loop.
    return vertx.executeBlocking(() -> {
      Map<String, Object> m = rankingTime.recordCallable(() -> model.rank(r.scenario, b)).toMap();
      Object quotesAt = m.remove("quotesAt");
      String comparable = Json.encode(m);
      m.put("quotesAt", quotesAt);
      return new String[] {comparable,
          "{\"type\":\"ranking\",\"scenario\":" + Json.encode(id) + ",\"ranking\":" + Json.encode(m) + "}"};
    }, true).map(encoded -> {
      if (!encoded[0].equals(r.comparable) && scenarios.get(id) == r) {
        r.comparable = encoded[0];
        r.message = encoded[1];
        publish(id, r.message);
      }
      return r;
    });
  }

  /** Tells every HTTP verticle (its cache of rankings, its dashboards) of a new ranking, or with null of a deleted scenario. */
  private void publish(String id, String message) {
    vertx.eventBus().publish(Addresses.RANKINGS_CHANGED, message, new DeliveryOptions().addHeader(Addresses.SCENARIO_HEADER, id));
  }

  /** Whether an event-bus failure carries a status code to pass on to an HTTP client. */
  static int status(Throwable t) {
    return t instanceof ReplyException re && re.failureType() == ReplyFailure.RECIPIENT_FAILURE ? re.failureCode() : 500;
  }
}
