package dev.gpurent.service.quotes;
import dev.gpurent.service.Failures;
import dev.gpurent.service.Addresses;

import dev.gpurent.service.LocalCodec;
import dev.gpurent.service.QuoteSettings;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.gpurent.adapter.AdapterRegistry;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.Regions;
import dev.gpurent.cluster.Leases;
import dev.gpurent.quote.MarketPlausibility;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.QuoteIntegrity;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Keeps every vendor's quotes fresh and publishes an immutable {@link QuoteBook} after any change.
 *
 * <p>One Caffeine {@link AsyncLoadingCache} keyed by vendor holds the last good quotes; loads run
 * on this verticle's event loop and concurrent loads of one vendor share one fetch. Every vendor
 * is refreshed on its own timer (Caffeine refreshes only what is read, and swallows errors), each
 * fetch behind that vendor's circuit breaker and timeout. A failed or implausible fetch keeps the
 * last good quotes, which turn stale, and past {@code expireAfter} expired: listed, never priced.
 * Each book holds the quotes the {@link MarketPlausibility} rule keeps against the whole book;
 * the ones it refuses are listed in their vendor's rejected rows.
 * Time comes from the injected clock, so tests advance it instead of sleeping.
 *
 * <p>In a cluster ({@link #clustered}) a vendor is fetched only by the node holding its lease, which
 * shares what it fetched ({@link QuoteSharing}); a node that takes a lease fetches that vendor at
 * once. FX rates and spot risk are read by every node ({@link MarketRates}).
 */
public final class QuoteVerticle extends VerticleBase {

  // Caffeine logs every failed load with a stack trace; a vendor failing is normal here and is
  // recorded in its status instead. Held in a field so the logger (and its level) is not collected.
  private static final java.util.logging.Logger CAFFEINE_LOG = quiet("com.github.benmanes.caffeine.cache");

  private static java.util.logging.Logger quiet(String name) {
    java.util.logging.Logger log = java.util.logging.Logger.getLogger(name);
    log.setLevel(java.util.logging.Level.OFF);
    return log;
  }

  private final List<VendorDefinition> definitions;
  private final GpuCatalog catalog;
  private final Regions regions;
  private final AdapterRegistry registry;
  private final QuoteSettings settings;
  private final JsonObject fxConfig;
  private final Clock clock;
  private final io.micrometer.core.instrument.MeterRegistry meters;
  private final Map<String, VendorState> vendors = new LinkedHashMap<>();
  private final List<Long> timers = new ArrayList<>();
  private Set<String> knownGpus;
  private AsyncLoadingCache<String, VendorQuotes> cache;
  private LastGoodCache lastGoodFiles;
  private MarketRates rates;
  private QuoteSharing sharing;
  private QuoteBook book;
  /** Each vendor's last good quotes as the book holds them: implausible ones moved to the rejected rows. */
  private Map<String, VendorQuotes> judged = Map.of();
  private Map<String, Object> publishedState = Map.of();
  /**
   * True while a reloaded pipeline has not tried every vendor once: it builds books but publishes
   * none, so that a re-import reaches the rankings as one change, never as a book without a vendor.
   */
  private boolean settling;
  /** The book the pipeline this one replaces last published: answered while settling. */
  private QuoteBook replaced;
  private Leases leases = Leases.single();
  /** The republish asked for and not yet run (see {@link #republishSoon}). */
  private Promise<Void> republishing;

  /** @param regions places each quote's region in its country (the vendor's {@code regions:} table) */
  public QuoteVerticle(List<VendorDefinition> definitions, GpuCatalog catalog, Regions regions, AdapterRegistry registry,
                       QuoteSettings settings, JsonObject fxConfig, Clock clock) {
    this(definitions, catalog, regions, registry, settings, fxConfig, clock,
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
  }

  /** @param meters where refresh counts and failures per vendor are counted ({@code gpurent.quotes.refresh}) */
  public QuoteVerticle(List<VendorDefinition> definitions, GpuCatalog catalog, Regions regions, AdapterRegistry registry,
                       QuoteSettings settings, JsonObject fxConfig, Clock clock, io.micrometer.core.instrument.MeterRegistry meters) {
    this.meters = meters;
    this.definitions = List.copyOf(definitions);
    this.catalog = catalog;
    this.regions = regions;
    this.registry = registry;
    this.settings = settings;
    this.fxConfig = fxConfig == null ? new JsonObject() : fxConfig;
    this.clock = clock;
  }

  @Override
  public Future<?> start() {
    try {
      vertx.eventBus().registerDefaultCodec(QuoteBook.class, new LocalCodec<>(QuoteBook.class));
    } catch (IllegalStateException alreadyRegistered) {
      // another verticle of this Vert.x instance registered it first
    }
    knownGpus = catalog.all().stream().map(Gpu::id).collect(Collectors.toUnmodifiableSet());
    rates = new MarketRates(vertx, settings, fxConfig, this::republish);
    for (VendorDefinition def : definitions) {
      vendors.put(def.vendor(), new VendorState(vertx, def, registry.factory(def.kind()).create(vertx, def, catalog), settings));
    }
    cache = Caffeine.newBuilder()
        .executor(task -> context.runOnContext(v -> task.run()))
        .ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
        .buildAsync((vendor, executor) -> load(vendor));
    lastGoodFiles = settings.cacheDir().isEmpty() ? null : new LastGoodCache(vertx, settings.cacheDir());
    // questions to the quote pipeline are answered by this node's own (local consumers)
    vertx.eventBus().localConsumer(Addresses.QUOTES_BOOK, msg -> msg.reply(settling && replaced != null ? replaced : book));
    vertx.eventBus().localConsumer(Addresses.QUOTES_STATUS, msg -> {
      String one = msg.body() instanceof JsonObject b ? b.getString("vendor") : null;
      if (one == null) {
        msg.reply(status());
      } else if (!vendors.containsKey(one)) {
        unknownVendor(msg, one);
      } else {
        msg.reply(status(vendors.get(one), clock.instant(), true));
      }
    });
    vertx.eventBus().<JsonObject>localConsumer(Addresses.QUOTES_REFRESH, msg -> {
      JsonObject body = msg.body() == null ? new JsonObject() : msg.body();
      String only = body.getString("vendor");
      if (only != null && !vendors.containsKey(only)) {
        unknownVendor(msg, only);
        return;
      }
      refreshAll(only == null ? List.copyOf(vendors.keySet()) : List.of(only)).onSuccess(msg::reply);
    });
    sharing = new QuoteSharing(vertx, leases, vendors, cache.synchronous()::getIfPresent,
        (v, q) -> stamped(v.def, q).withReference(v.def.reference()), this::installFromElsewhere);
    return Future.all(warmFromFiles(), sharing.listen(), vertx.executeBlocking(tokenPriceLoader).onSuccess(b -> tokenPrices = b))
        .compose(v -> leases.start(context, vendors.keySet(), this::refresh))
        .compose(v -> {
      republish();
      boolean replacing = settling;
      refreshAll(List.copyOf(vendors.keySet())).onComplete(all -> {
        settling = false;
        replaced = null;
        republish();
        // A reload runs on every node at once: the first ask below may have reached a holder that was
        // itself still reloading, with nothing fetched to share yet. Asking again once every vendor has
        // been tried here gets each holder's fetch of the new files.
        if (replacing && leases.clustered()) sharing.ask();
      });
      if (leases.clustered()) sharing.ask();
      for (VendorState v2 : vendors.values()) {
        timers.add(vertx.setPeriodic(v2.def.refresh().toMillis(), id -> refresh(v2.def.vendor())));
      }
      timers.add(vertx.setPeriodic(settings.freshnessCheck().toMillis(), id -> republish()));
      timers.add(vertx.setPeriodic(settings.fxRefresh().toMillis(), id -> rates.refreshFx()));
      return Future.succeededFuture();
    });
  }

  private void unknownVendor(io.vertx.core.eventbus.Message<?> msg, String name) {
    Failures.fail(msg, 404, "unknown vendor '" + (name.length() > 40 ? name.substring(0, 40) + "..." : name) + "'; known: "
        + String.join(", ", vendors.keySet()));
  }

  @Override
  public Future<?> stop() {
    timers.forEach(vertx::cancelTimer);
    vendors.values().forEach(v -> v.breaker.close());
    return leases.release();
  }

  /**
   * Makes this pipeline the replacement of one that published {@code previous} (a reload after a
   * quote sheet import or an adapters change): until every vendor has been tried once it answers
   * {@code previous} and publishes nothing, then publishes its whole book once. Call before deploying.
   */
  public QuoteVerticle replacing(QuoteBook previous) {
    this.settling = true;
    this.replaced = previous;
    return this;
  }

  /** Shares the fetching with the other nodes of a cluster by these leases (default: this node fetches every vendor). Call before deploying. */
  public QuoteVerticle clustered(Leases leases) {
    this.leases = leases;
    return this;
  }

  /** Quotes another node fetched under its lease, installed as this node's own fetch would be. */
  private void installFromElsewhere(VendorState v, VendorQuotes q) {
    cache.put(v.def.vendor(), CompletableFuture.completedFuture(q));
    v.succeeded(q.fetchedAt());
    republish();
    saved(v, q);
  }

  private Map<String, VendorQuotes> seed = Map.of();
  private java.util.concurrent.Callable<dev.gpurent.quote.TokenPriceBook> tokenPriceLoader = () -> dev.gpurent.quote.TokenPriceBook.EMPTY;
  private dev.gpurent.quote.TokenPriceBook tokenPrices = dev.gpurent.quote.TokenPriceBook.EMPTY;

  /**
   * How to read the inference APIs' per-token prices that every book carries: once, on a worker,
   * as the verticle starts (a failure fails the deployment). Call before deploying.
   */
  public QuoteVerticle tokenPrices(java.util.concurrent.Callable<dev.gpurent.quote.TokenPriceBook> loader) {
    this.tokenPriceLoader = loader;
    return this;
  }

  /**
   * Quotes to start from where a vendor has no last good file (the latest snapshot): flagged
   * stale, with the age of their fetch, until the vendor answers. Call before deploying.
   */
  public QuoteVerticle seed(Map<String, VendorQuotes> quotes) {
    this.seed = Map.copyOf(quotes);
    return this;
  }

  /** The book as it stands, for in-process callers (the command line). */
  public QuoteBook book() {
    return book;
  }

  /** Starts each vendor from its last good file, else from the seed (the latest snapshot), stale. */
  private Future<Void> warmFromFiles() {
    List<Future<?>> loads = new ArrayList<>();
    for (VendorState v : vendors.values()) {
      String id = v.def.vendor();
      Future<java.util.Optional<VendorQuotes>> saved = lastGoodFiles == null ? Future.succeededFuture(java.util.Optional.empty())
          : lastGoodFiles.load(id);
      saved = saved.recover(e -> {
        v.notice = e instanceof LastGoodCache.Corrupt ? e.getMessage() : "its last good quotes could not be read";
        java.util.logging.Logger.getLogger(QuoteVerticle.class.getName()).warning(() -> id + ": " + v.notice);
        return Future.succeededFuture(java.util.Optional.empty());
      });
      loads.add(saved.onSuccess(q -> q.or(() -> java.util.Optional.ofNullable(seed.get(id))).ifPresent(kept -> {
        VendorQuotes quotes = stamped(v.def, kept).withReference(v.def.reference());
        cache.put(id, CompletableFuture.completedFuture(quotes));
        v.lastSuccess = quotes.fetchedAt();
        v.fromCache = true;
      })));
    }
    return Future.join(loads).mapEmpty();
  }

  /**
   * Refreshes the named vendors now (and the FX rates, when every vendor is asked for); completes,
   * never fails, with what succeeded and why the rest failed.
   */
  public Future<JsonObject> refreshAll(List<String> ids) {
    List<Future<VendorQuotes>> all = ids.stream().map(this::refresh).toList();
    Future<?> read = ids.size() == vendors.size() ? Future.join(rates.refreshFx(), rates.refreshSpotRisk()) : Future.succeededFuture();
    return Future.join(Future.join(all), read).transform(ignored -> {
      JsonArray ok = new JsonArray();
      JsonObject failed = new JsonObject();
      for (int i = 0; i < ids.size(); i++) {
        Future<VendorQuotes> f = all.get(i);
        if (f.succeeded()) ok.add(ids.get(i));
        else failed.put(ids.get(i), f.cause().getMessage());
      }
      return Future.succeededFuture(new JsonObject().put("refreshed", ok).put("failed", failed));
    });
  }

  /** One vendor's refresh; a refresh already under way is shared, not repeated. */
  Future<VendorQuotes> refresh(String id) {
    VendorState v = vendors.get(id);
    if (v.inFlight != null) return v.inFlight;
    if (!leases.held(id)) return Future.failedFuture("fetched by another node of the cluster (it holds the lease)");
    if (settings.offline() && v.http) {
      return Future.failedFuture("offline: " + id + " is read from " + v.source + ", not fetched");
    }
    v.lastAttempt = clock.instant();
    v.refreshes++;
    // The new quotes go to the book and the other nodes first, to disk after: restarts need the file, dashboards do not wait for it.
    Future<VendorQuotes> f = Future.fromCompletionStage(cache.synchronous().refresh(id), context)
        .andThen(ar -> {
          meters.counter("gpurent.quotes.refresh", "vendor", id, "outcome", ar.succeeded() ? "success" : "failure").increment();
          if (ar.succeeded()) {
            // Caffeine installs a refreshed value after the refresh future completes; install it
            // now so that the book built below already holds it.
            cache.put(id, CompletableFuture.completedFuture(ar.result()));
            v.succeeded(clock.instant());
            if (leases.clustered()) sharing.share(id, ar.result());
          } else {
            v.failures++;
            v.lastError = message(ar.cause());
            v.lastErrorAt = clock.instant();
            String expiry = dev.gpurent.quote.QuoteExpiredException.find(ar.cause());
            if (expiry != null) {
              // the source withdrew its prices: its last good quotes must not be ranked either
              v.expired = expiry;
              cache.synchronous().invalidate(id);
            }
          }
        })
        .transform(ar -> republishSoon().transform(x -> ar.succeeded() ? Future.succeededFuture(ar.result()) : Future.<VendorQuotes>failedFuture(ar.cause())))
        .compose(q -> saved(v, q))
        .andThen(ar -> v.inFlight = null);
    v.inFlight = f;
    return f;
  }

  /**
   * Keeps the good payload on disk for restarts and offline runs, after the vendor's previous write;
   * a failed write only loses that.
   */
  private Future<VendorQuotes> saved(VendorState v, VendorQuotes q) {
    if (lastGoodFiles == null) return Future.succeededFuture(q);
    Future<VendorQuotes> done = v.saving.transform(x -> lastGoodFiles.save(q)).map(q).recover(e -> Future.succeededFuture(q));
    v.saving = done;
    return done;
  }

  /** The cache loader: fetch behind the breaker, then check the payload before it may replace anything. */
  private CompletableFuture<VendorQuotes> load(String id) {
    VendorState v = vendors.get(id);
    CompletableFuture<VendorQuotes> done = new CompletableFuture<>();
    context.runOnContext(x -> v.breaker.<VendorQuotes>execute(() -> v.adapter.fetch().compose(q -> checked(v, q)))
        .onComplete(ar -> {
          if (ar.succeeded()) done.complete(ar.result());
          else done.completeExceptionally(ar.cause());
        }));
    return done;
  }

  private Future<VendorQuotes> checked(VendorState v, VendorQuotes fresh) {
    VendorQuotes previous = cache.synchronous().getIfPresent(v.def.vendor());
    QuoteIntegrity.Verdict verdict = QuoteIntegrity.check(fresh, knownGpus, previous);
    return verdict.refusal().<Future<VendorQuotes>>map(p -> Future.failedFuture("payload refused: " + p))
        .orElseGet(() -> Future.succeededFuture(stamped(v.def, verdict.accepted()).withFetchedAt(clock.instant())
            .withReference(v.def.reference())));
  }

  /**
   * The quotes with what the vendor's definition knows and the payload does not say: each
   * region's country from the vendor's {@code regions:} table (a region the table does not place
   * keeps the country it has, "" at first), and the vendor's {@code asOf:} as the date of every
   * price whose source states none (an undated quote).
   */
  public static VendorQuotes stamped(VendorDefinition def, Regions regions, VendorQuotes q) {
    String table = def.regionTable();
    Instant asOf = def.asOf().orElse(null);
    List<Quote> out = new ArrayList<>(q.quotes().size());
    boolean changed = false;
    for (Quote x : q.quotes()) {
      Quote y = x;
      String country = regions.country(table, x.region()).orElse(x.country());
      if (!country.equals(y.country())) y = y.withCountry(country);
      if (asOf != null && y.undated()) y = y.withPriceDate(asOf);
      changed |= y != x;
      out.add(y);
    }
    return changed ? q.withQuotes(out, q.rejected()) : q;
  }

  private VendorQuotes stamped(VendorDefinition def, VendorQuotes q) {
    return stamped(def, regions, q);
  }

  /**
   * A republish for every vendor whose refresh ends before it runs: one book built after the
   * refreshes that end in the same turn of the event loop, or while the last book was being built,
   * not one each. Judging the whole book ({@link MarketPlausibility}) took 30-140 ms of this loop a
   * time with 20 vendors (bench/faults.sh), and a refresh of all ends 20 (68 at start-up) of them.
   */
  private Future<Void> republishSoon() {
    if (republishing == null) {
      Promise<Void> p = Promise.promise();
      republishing = p;
      context.runOnContext(x -> {
        republishing = null;
        republish();
        p.complete();
      });
    }
    return republishing.future();
  }

  /** Builds the book and publishes it when quotes, freshness states or FX changed. */
  private void republish() {
    QuoteBookBuilder.Built built = QuoteBookBuilder.build(vendors.values(), cache.synchronous()::getIfPresent, rates, settings,
        tokenPrices, clock.instant());
    judged = built.judged();
    book = built.book();
    if (!settling && !built.state().equals(publishedState)) {
      publishedState = built.state();
      vertx.eventBus().publish(Addresses.QUOTES_CHANGED, book, new DeliveryOptions().setLocalOnly(true));
    }
  }

  private JsonArray status() {
    Instant now = clock.instant();
    JsonArray out = new JsonArray();
    for (VendorState v : vendors.values()) out.add(status(v, now, false));
    return out;
  }

  private JsonObject status(VendorState v, Instant now, boolean refused) {
    VendorQuotes q = judged.getOrDefault(v.def.vendor(), cache.synchronous().getIfPresent(v.def.vendor()));
    return VendorStatus.of(v, q, now, settings.expireAfter(), refused);
  }

  private static String message(Throwable t) {
    String m = t.getMessage();
    if (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) return message(t.getCause());
    return Objects.requireNonNullElse(m, t.getClass().getSimpleName());
  }
}
