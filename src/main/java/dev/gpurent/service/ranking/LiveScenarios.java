package dev.gpurent.service.ranking;

import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.cost.Scenario;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.service.Addresses;
import dev.gpurent.service.ClientIdentity;
import dev.gpurent.service.Failures;
import dev.gpurent.service.RankingSettings;
import dev.gpurent.store.ScenarioStore;
import dev.gpurent.store.StoredScenario;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The live scenarios of this node: registered here, restored from the {@link ScenarioStore} at
 * start with their ids (the registration body is kept verbatim), or registered on another node of
 * the cluster ({@link Addresses#SCENARIOS_CHANGED}). Capped in all and per client (a network,
 * {@link ClientIdentity}); each holds its weight of the node's memory budget
 * ({@link RankingBudget}), at registration and at restore: past it, a refusal that says so. A
 * stored scenario the budget has no room for at start is not loaded: it is logged, left in the
 * store, and its ranking answers 503 saying why until it is deleted. Used on the RankingVerticle's
 * event loop only.
 */
final class LiveScenarios {

  private static final Logger LOG = Logger.getLogger(LiveScenarios.class.getName());

  /** What the registry asks of the live pass. */
  interface Ranker {
    /** Completes once the scenario's first ranking is published, when this node keeps it ranked; at once otherwise. */
    Future<?> firstRanked(String id, LiveScenario s);

    /** Tells this node's HTTP verticles and AlertVerticle that the scenario is gone. */
    void deleted(String id);
  }

  private final Map<String, LiveScenario> scenarios = new LinkedHashMap<>();
  private final Map<String, Integer> perClient = new HashMap<>();
  /** Stored scenarios not loaded at start (over the budget), with why: left in the store, answered 503 until deleted. */
  private final Map<String, String> unloaded = new HashMap<>();
  private final RankingSettings limits;
  private final RankingBudget budget;
  private final ScenarioChecks checks;
  private final Ownership ownership;
  private final Supplier<QuoteBook> book;
  private ScenarioStore store = ScenarioStore.none();
  private ClientIdentity clients;
  private Vertx vertx;
  private Ranker ranker;

  LiveScenarios(RankingSettings limits, RankingBudget budget, ScenarioChecks checks, Ownership ownership, ClientIdentity clients,
                Supplier<QuoteBook> book) {
    this.limits = limits;
    this.budget = budget;
    this.checks = checks;
    this.ownership = ownership;
    this.clients = clients;
    this.book = book;
  }

  void store(ScenarioStore store) {
    this.store = store;
  }

  void clients(ClientIdentity clients) {
    this.clients = clients;
  }

  void start(Vertx vertx, Ranker ranker) {
    this.vertx = vertx;
    this.ranker = ranker;
  }

  /** Every live scenario, in registration order (live: not a copy). */
  Map<String, LiveScenario> all() {
    return scenarios;
  }

  LiveScenario get(String id) {
    return scenarios.get(id);
  }

  /** Stored scenarios not loaded (for the metrics). */
  int unloaded() {
    return unloaded.size();
  }

  /**
   * Reads the stored scenarios back with their ids, oldest first; one that no longer reads (a GPU
   * left the catalog) is logged and left in the store, as is one the memory budget has no room for
   * (a smaller budget than when it was registered), which answers 503 saying so until it is deleted.
   */
  Future<?> restore() {
    return store.all().onSuccess(all -> {
      for (StoredScenario s : all) {
        try {
          JsonObject body = new JsonObject(s.body());
          Scenario scenario = checks.read(body);
          long weight = weight(scenario);
          Failures.Refused refused = budget.admitLive(weight);
          if (refused != null) {
            unloaded.put(s.id(), "not loaded at start: " + refused.getMessage());
            continue;
          }
          adopt(s.id(), s.client(), scenario, weight);
          // this node's AlertVerticle learns the rules again (each node restores for itself)
          vertx.eventBus().publish(Addresses.SCENARIO_REGISTERED, new JsonObject().put("id", s.id()).put("registration", body)
              .put("client", s.client()), new DeliveryOptions().setLocalOnly(true));
        } catch (InvalidInputException | DecodeException e) {
          LOG.warning(() -> "stored scenario " + s.id() + " is not restored: " + e.getMessage());
        }
      }
      if (!all.isEmpty()) LOG.info(() -> "restored " + scenarios.size() + " live scenarios");
      if (!unloaded.isEmpty()) {
        LOG.warning(() -> unloaded.size() + " stored live scenarios are not loaded, over the ranking budget of "
            + RankingBudget.mib(budget.total()) + " (ranking.memoryBudget); they stay in the store and their rankings answer"
            + " 503 until deleted or the service starts with a larger budget: " + String.join(", ", unloaded.keySet()));
      }
    });
  }

  /** A registration: checked, capped, kept in the store, told to every node, ranked; answered with its id. */
  void register(Message<JsonObject> msg) {
    JsonObject body = msg.body() == null ? new JsonObject() : msg.body();
    Scenario s = checks.parseRegistration(msg, body);
    if (s == null) return;
    if (book.get() != null && !checks.known(msg, s, book.get())) return;
    String client = msg.headers().get(Addresses.CLIENT_HEADER);
    String who = client == null ? "" : client;
    if (scenarios.size() >= limits.maxScenarios()) {
      Failures.fail(msg, 429, "at most " + limits.maxScenarios() + " live scenarios; delete one first");
      return;
    }
    String network = clients.network(who);
    if (perClient.getOrDefault(network, 0) >= limits.maxScenariosPerClient()) {
      Failures.fail(msg, 429, "at most " + limits.maxScenariosPerClient() + " live scenarios per client (" + network
          + "); delete one first");
      return;
    }
    long weight = weight(s);
    Failures.Refused refused = budget.admitLive(weight);
    if (refused != null) {
      Failures.fail(msg, refused);
      return;
    }
    String id = UUID.randomUUID().toString();
    // counted at once, so that registrations racing the store's write still meet the caps
    LiveScenario r = adopt(id, who, s, weight);
    StoredScenario stored = new StoredScenario(id, who, Instant.now(), body.encode());
    store.save(stored).onFailure(e -> {
      forget(id, r);
      Failures.fail(msg, 503, "the scenario cannot be kept now (" + Failures.text(e) + "); try again");
    }).onSuccess(x -> {
      // Before its first ranking, so that the AlertVerticles (on every node) know its rules when it comes.
      vertx.eventBus().publish(Addresses.SCENARIO_REGISTERED, new JsonObject().put("id", id).put("registration", body).put("client", who));
      vertx.eventBus().publish(Addresses.SCENARIOS_CHANGED, new JsonObject().put("id", id).put("client", who)
          .put("created", stored.created().toString()).put("body", stored.body()), ownership.fromHere());
      ranker.firstRanked(id, r).onComplete(y -> msg.reply(new JsonObject().put("id", id)));
    });
  }

  /** Runs {@code action} with the scenario the message names; answers 503 for one not loaded, 404 for an unknown one. */
  void withScenario(Message<JsonObject> msg, Consumer<LiveScenario> action) {
    Object raw = msg.body() == null ? null : msg.body().getValue("id");
    LiveScenario r = raw instanceof String id ? scenarios.get(id) : null;
    String notLoaded = raw instanceof String id ? unloaded.get(id) : null;
    if (notLoaded != null) {
      Failures.fail(msg, 503, notLoaded + "; DELETE it, or start the service with a larger budget");
    } else if (r == null) {
      String id = String.valueOf(raw);
      Failures.fail(msg, 404, "no live scenario '" + (id.length() > 64 ? id.substring(0, 64) + "..." : id) + "'");
    } else {
      action.accept(r);
    }
  }

  /** A deletion: from the store, then here, on every other node, and from this node's readers. */
  void delete(Message<JsonObject> msg) {
    if (deleteUnloaded(msg)) return;
    withScenario(msg, r -> {
      String id = msg.body().getString("id");
      store.delete(id).onSuccess(x -> {
        if (scenarios.get(id) == r) forget(id, r);
        vertx.eventBus().publish(Addresses.SCENARIOS_CHANGED, new JsonObject().put("id", id).put("deleted", true), ownership.fromHere());
        ranker.deleted(id);
        msg.reply(new JsonObject().put("deleted", id));
      }).onFailure(e -> Failures.fail(msg, 503, "the scenario cannot be deleted now (" + Failures.text(e) + "); try again"));
    });
  }

  /** Deletes a stored scenario that was not loaded (over the budget at start); false when the id is no such one. */
  private boolean deleteUnloaded(Message<JsonObject> msg) {
    Object raw = msg.body() == null ? null : msg.body().getValue("id");
    if (!(raw instanceof String id) || !unloaded.containsKey(id)) return false;
    store.delete(id).onSuccess(x -> {
      unloaded.remove(id);
      vertx.eventBus().publish(Addresses.SCENARIOS_CHANGED, new JsonObject().put("id", id).put("deleted", true), ownership.fromHere());
      msg.reply(new JsonObject().put("deleted", id));
    }).onFailure(e -> Failures.fail(msg, 503, "the scenario cannot be deleted now (" + Failures.text(e) + "); try again"));
    return true;
  }

  /** Another node registered or deleted a scenario. */
  void changedElsewhere(Message<JsonObject> msg) {
    JsonObject b = msg.body();
    if (b == null || ownership.node().equals(msg.headers().get(Addresses.NODE_HEADER))) return;
    String id = b.getString("id");
    if (b.getBoolean("deleted", false)) {
      unloaded.remove(id);
      LiveScenario r = scenarios.get(id);
      if (r != null) {
        forget(id, r);
        ranker.deleted(id);  // this node's dashboards and alerts
      }
      return;
    }
    if (scenarios.containsKey(id)) return;
    try {
      Scenario s = checks.read(new JsonObject(b.getString("body")));
      long weight = weight(s);
      Failures.Refused refused = budget.admitLive(weight);
      if (refused != null) {
        unloaded.put(id, "not loaded on this node: " + refused.getMessage());
        LOG.warning(() -> "scenario " + id + " registered elsewhere is not loaded here: " + refused.getMessage());
        return;
      }
      ranker.firstRanked(id, adopt(id, b.getString("client", ""), s, weight));
    } catch (InvalidInputException | DecodeException e) {
      LOG.warning(() -> "scenario " + id + " registered elsewhere does not read here: " + e.getMessage());
    }
  }

  /** Keeps a live scenario whose weight the budget holds already; {@code client} is its address as stored. */
  private LiveScenario adopt(String id, String client, Scenario s, long weight) {
    LiveScenario r = new LiveScenario(s, clients.network(client), weight);
    if (scenarios.putIfAbsent(id, r) != null) {
      budget.releaseLive(weight);
      return scenarios.get(id);
    }
    perClient.merge(r.client, 1, Integer::sum);
    return r;
  }

  private void forget(String id, LiveScenario r) {
    if (scenarios.remove(id) == null) return;
    budget.releaseLive(r.weight);
    perClient.computeIfPresent(r.client, (k, n) -> n <= 1 ? null : n - 1);
  }

  /** The memory a live scenario's ranking holds here: what the budget charges it. */
  private long weight(Scenario s) {
    return RankingBudget.cells(s, book.get()) * RankingBudget.LIVE_BYTES_PER_CELL;
  }
}
