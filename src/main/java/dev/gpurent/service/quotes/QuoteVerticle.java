package dev.gpurent.service.quotes;
import dev.gpurent.service.Failures;
import dev.gpurent.service.Addresses;

import dev.gpurent.service.LocalCodec;
import dev.gpurent.service.QuoteSettings;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.gpurent.adapter.AdapterRegistry;
import dev.gpurent.adapter.EcbFxAdapter;
import dev.gpurent.adapter.PayloadSource;
import dev.gpurent.adapter.RefusedRows;
import dev.gpurent.adapter.VendorAdapter;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.Regions;
import dev.gpurent.cluster.Leases;
import dev.gpurent.config.PlainValues;
import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.FxHistory;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.MarketPlausibility;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.QuoteIntegrity;
import dev.gpurent.quote.QuoteJson;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.circuitbreaker.CircuitBreakerOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
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
 * <p>In a cluster ({@link #clustered}) a vendor is fetched only by the node holding its lease; that
 * node publishes what it fetched on {@link Addresses#QUOTES_FETCHED} (after checking the lease is
 * still its own) and every other node installs those quotes as if it had fetched them. A node that
 * joins asks for every vendor's quotes ({@link Addresses#QUOTES_WANTED}); a node that takes a lease
 * fetches that vendor at once. FX rates and spot risk are read by every node.
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
  private final Map<String, Vendor> vendors = new LinkedHashMap<>();
  private final List<Long> timers = new ArrayList<>();
  private Set<String> knownGpus;
  private AsyncLoadingCache<String, VendorQuotes> cache;
  private LastGoodCache lastGoodFiles;
  private FxRates fallbackFx;
  private FxRates fx;
  private dev.gpurent.quote.SpotRisk spotRisk;
  private QuoteBook book;
  /** Each vendor's last good quotes as the book holds them: implausible ones moved to the rejected rows. */
  private Map<String, VendorQuotes> judged = Map.of();
  private Map<String, Object> publishedState = Map.of();
  /** Moves only when the spot rates read say something new (a re-read of the same feed is no change). */
  private long spotVersion;
  /**
   * True while a reloaded pipeline has not tried every vendor once: it builds books but publishes
   * none, so that a re-import reaches the rankings as one change, never as a book without a vendor.
   */
  private boolean settling;
  /** The book the pipeline this one replaces last published: answered while settling. */
  private QuoteBook replaced;
  private Leases leases = Leases.single();

  /** One vendor's adapter, breaker and refresh history; touched only on this verticle's event loop. */
  private static final class Vendor {
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

    Vendor(VendorDefinition def, VendorAdapter adapter, CircuitBreaker breaker, boolean http, String source) {
      this.def = def;
      this.adapter = adapter;
      this.breaker = breaker;
      this.http = http;
      this.source = source;
    }
  }

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
    JsonObject fallback = fxConfig.getJsonObject("fallback");
    fallbackFx = fallback == null ? FxRates.none("USD") : FxRates.fallback(PlainValues.map(fallback));
    fx = fallbackFx;
    for (VendorDefinition def : definitions) {
      VendorAdapter adapter = registry.factory(def.kind()).create(vertx, def, catalog);
      long timeout = PayloadSource.fetchTimeout(def).toMillis();
      CircuitBreaker breaker = CircuitBreaker.create("vendor-" + def.vendor(), vertx, new CircuitBreakerOptions()
          .setMaxFailures(settings.maxFailures()).setTimeout(timeout).setResetTimeout(settings.resetTimeout().toMillis())
          .setNotificationAddress(null));
      String src = def.config().getString("source", "");
      vendors.put(def.vendor(), new Vendor(def, adapter, breaker, src.startsWith("http://") || src.startsWith("https://"),
          PayloadSource.redact(src)));
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
        Failures.fail(msg, 404, "unknown vendor '" + (one.length() > 40 ? one.substring(0, 40) + "..." : one) + "'; known: "
            + String.join(", ", vendors.keySet()));
      } else {
        msg.reply(status(vendors.get(one), clock.instant(), true));
      }
    });
    vertx.eventBus().<JsonObject>localConsumer(Addresses.QUOTES_REFRESH, msg -> {
      JsonObject body = msg.body() == null ? new JsonObject() : msg.body();
      String only = body.getString("vendor");
      if (only != null && !vendors.containsKey(only)) {
        Failures.fail(msg, 404, "unknown vendor '" + (only.length() > 40 ? only.substring(0, 40) + "..." : only) + "'; known: "
            + String.join(", ", vendors.keySet()));
        return;
      }
      refreshAll(only == null ? List.copyOf(vendors.keySet()) : List.of(only)).onSuccess(msg::reply);
    });
    Future<?> shared = !leases.clustered() ? Future.succeededFuture() : Future.all(
        vertx.eventBus().<String>consumer(Addresses.QUOTES_FETCHED, this::fetchedElsewhere).completion(),
        vertx.eventBus().consumer(Addresses.QUOTES_WANTED, msg -> shareHeld()).completion());
    return Future.all(warmFromFiles(), shared, vertx.executeBlocking(tokenPriceLoader).onSuccess(b -> tokenPrices = b))
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
        if (replacing && leases.clustered()) vertx.eventBus().publish(Addresses.QUOTES_WANTED, null, fromHere());
      });
      if (leases.clustered()) vertx.eventBus().publish(Addresses.QUOTES_WANTED, null, fromHere());
      for (Vendor v2 : vendors.values()) {
        timers.add(vertx.setPeriodic(v2.def.refresh().toMillis(), id -> refresh(v2.def.vendor())));
      }
      timers.add(vertx.setPeriodic(settings.freshnessCheck().toMillis(), id -> republish()));
      timers.add(vertx.setPeriodic(settings.fxRefresh().toMillis(), id -> refreshFx()));
      return Future.succeededFuture();
    });
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

  private DeliveryOptions fromHere() {
    return new DeliveryOptions().addHeader(Addresses.NODE_HEADER, leases.node());
  }

  /** Tells the other nodes what this node fetched, if it still holds the vendor's lease; encoded on a worker (a payload can be 100,000 quotes). */
  private void share(String id, VendorQuotes q) {
    leases.confirm(id).onSuccess(mine -> {
      if (!mine) {
        java.util.logging.Logger.getLogger(QuoteVerticle.class.getName()).info(() -> id + ": lease lost while fetching; not published");
        return;
      }
      vertx.executeBlocking(() -> QuoteJson.toJson(q).encode(), false)
          .onSuccess(text -> vertx.eventBus().publish(Addresses.QUOTES_FETCHED, text, fromHere().addHeader(Addresses.VENDOR_HEADER, id)));
    });
  }

  /** A node that joined asked for everything: the vendors this node fetches. */
  private void shareHeld() {
    for (String id : vendors.keySet()) {
      VendorQuotes q = cache.synchronous().getIfPresent(id);
      if (q != null && leases.held(id) && vendors.get(id).lastAttempt != null) share(id, q);
    }
  }

  /** Quotes another node fetched under its lease: installed as this node's own fetch would be. */
  private void fetchedElsewhere(Message<String> msg) {
    String id = msg.headers().get(Addresses.VENDOR_HEADER);
    Vendor v = id == null ? null : vendors.get(id);
    if (v == null || leases.node().equals(msg.headers().get(Addresses.NODE_HEADER)) || leases.held(id)) return;
    vertx.executeBlocking(() -> stamped(v.def, QuoteJson.vendorQuotes(new JsonObject(msg.body()))).withReference(v.def.reference()), false)
        .onSuccess(q -> {
          if (leases.held(id)) return;  // taken meanwhile: this node's own fetch counts now
          cache.put(id, CompletableFuture.completedFuture(q));
          v.lastSuccess = q.fetchedAt();
          v.lastError = null;
          v.expired = null;
          v.fromCache = false;
          republish();
          saved(v, q);
        })
        .onFailure(e -> java.util.logging.Logger.getLogger(QuoteVerticle.class.getName())
            .warning(() -> id + ": quotes from another node do not read: " + e.getMessage()));
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
    for (Vendor v : vendors.values()) {
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
    Future<?> rates = ids.size() == vendors.size() ? Future.join(refreshFx(), refreshSpotRisk()) : Future.succeededFuture();
    return Future.join(Future.join(all), rates).transform(ignored -> {
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
    Vendor v = vendors.get(id);
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
            v.lastSuccess = clock.instant();
            v.lastError = null;
            v.expired = null;
            v.fromCache = false;
            if (leases.clustered()) share(id, ar.result());
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
          republish();
        })
        .compose(q -> saved(v, q))
        .andThen(ar -> v.inFlight = null);
    v.inFlight = f;
    return f;
  }

  /**
   * Keeps the good payload on disk for restarts and offline runs, after the vendor's previous write;
   * a failed write only loses that.
   */
  private Future<VendorQuotes> saved(Vendor v, VendorQuotes q) {
    if (lastGoodFiles == null) return Future.succeededFuture(q);
    Future<VendorQuotes> done = v.saving.transform(x -> lastGoodFiles.save(q)).map(q).recover(e -> Future.succeededFuture(q));
    v.saving = done;
    return done;
  }

  /** The cache loader: fetch behind the breaker, then check the payload before it may replace anything. */
  private CompletableFuture<VendorQuotes> load(String id) {
    Vendor v = vendors.get(id);
    CompletableFuture<VendorQuotes> done = new CompletableFuture<>();
    context.runOnContext(x -> v.breaker.<VendorQuotes>execute(() -> v.adapter.fetch().compose(q -> checked(v, q)))
        .onComplete(ar -> {
          if (ar.succeeded()) done.complete(ar.result());
          else done.completeExceptionally(ar.cause());
        }));
    return done;
  }

  private Future<VendorQuotes> checked(Vendor v, VendorQuotes fresh) {
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

  /** Reads the FX feed; on failure the last rates stay (at first, the fallback table). */
  private Future<FxRates> refreshFx() {
    String src = fxConfig.getString("source", EcbFxAdapter.DAILY_URL);
    if (settings.offline() && (src.startsWith("http://") || src.startsWith("https://"))) return Future.succeededFuture(fx);
    return EcbFxAdapter.fetch(vertx, fxConfig).map(FxHistory::latest)
        .onSuccess(rates -> {
          if (rates.sameRates(fx)) return;  // the same object then: BookChange sees an FX change by identity
          fx = rates;
          republish();
        });
  }

  /** Reads the spot interruption rates (AWS Spot Advisor); on failure the last ones stay, or none. */
  private Future<?> refreshSpotRisk() {
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
          republish();
        });
  }

  private Freshness freshness(Vendor v, Instant now) {
    Duration age = v.lastSuccess == null ? Duration.ZERO : Duration.between(v.lastSuccess, now);
    if (age.compareTo(settings.expireAfter()) > 0) return new Freshness(Freshness.State.EXPIRED, age);
    boolean failedSince = v.lastErrorAt != null && !v.lastErrorAt.isBefore(v.lastSuccess);
    if (failedSince || v.fromCache) return new Freshness(Freshness.State.STALE, age);
    return new Freshness(Freshness.State.FRESH, age);
  }

  /** Builds the book and publishes it when quotes, freshness states or FX changed. */
  private void republish() {
    Instant now = clock.instant();
    Map<String, QuoteBook.Entry> entries = new LinkedHashMap<>();
    Map<String, String> unavailable = new LinkedHashMap<>();
    Map<String, Object> state = new LinkedHashMap<>();
    Map<String, VendorQuotes> fetched = new LinkedHashMap<>();
    for (Vendor v : vendors.values()) {
      VendorQuotes q = cache.synchronous().getIfPresent(v.def.vendor());
      if (q != null) fetched.put(v.def.vendor(), q);
    }
    // Judged against the whole book, so only here: a payload alone cannot tell a placeholder from a bargain.
    judged = MarketPlausibility.judge(fetched, fx);
    for (Vendor v : vendors.values()) {
      String id = v.def.vendor();
      VendorQuotes q = judged.get(id);
      if (q == null) {
        String why = v.expired != null ? v.expired
            : settings.offline() && v.http ? "offline, and no quotes were saved from an earlier fetch"
            : v.lastError != null ? "no quotes yet: " + dev.gpurent.config.UserText.withoutPaths(v.lastError)
            : "no quotes yet: first fetch under way";
        unavailable.put(id, why);
        state.put(id, why);
        continue;
      }
      Freshness f = freshness(v, now);
      entries.put(id, new QuoteBook.Entry(q, f));
      state.put(id, List.of(version(v, fetched.get(id)), f.state(), daysOld(v.priceDates, now)));
    }
    state.put("fx", fx.source() + " " + fx.asOf());
    state.put("fxDays", fx.asOf() == null ? List.of() : daysOld(Set.of(fx.asOf().atStartOfDay(java.time.ZoneOffset.UTC).toInstant()), now));
    state.put("spotRisk", spotRisk == null ? "" : spotRisk.source() + " " + spotVersion);
    book = new QuoteBook(entries, unavailable, fx, spotRisk, now, tokenPrices);
    if (!settling && !state.equals(publishedState)) {
      publishedState = state;
      vertx.eventBus().publish(Addresses.QUOTES_CHANGED, book, new DeliveryOptions().setLocalOnly(true));
    }
  }

  /**
   * The vendor's payload version: moved when its cached payload says something the last one did
   * not, so that a refresh finding the same prices publishes nothing (issue 32).
   */
  private static long version(Vendor v, VendorQuotes q) {
    if (q != v.seen) {
      if (v.seen == null || !v.seen.samePrices(q)) {
        v.version++;
        v.priceDates = q.quotes().stream().map(Quote::priceDate).filter(Objects::nonNull).collect(Collectors.toUnmodifiableSet());
      }
      v.seen = q;
    }
    return v.version;
  }

  /**
   * How many whole days old each date is at {@code now}: what a book published for nothing but the
   * time would change in a ranking (a plan's prices or FX rates turning dated, the days it counts).
   */
  private static List<Long> daysOld(Set<Instant> dates, Instant now) {
    return dates.stream().map(d -> Duration.between(d, now).toDays()).sorted().toList();
  }

  private JsonArray status() {
    Instant now = clock.instant();
    JsonArray out = new JsonArray();
    for (Vendor v : vendors.values()) out.add(status(v, now, false));
    return out;
  }

  /** One vendor's status; with {@code refused}, its refused rows as {@link RefusedRows} reads them. */
  private JsonObject status(Vendor v, Instant now, boolean refused) {
    VendorQuotes q = judged.getOrDefault(v.def.vendor(), cache.synchronous().getIfPresent(v.def.vendor()));
    Freshness f = q == null ? null : freshness(v, now);
    long[] rows = q == null ? new long[2] : dev.gpurent.adapter.RowLog.rowCounts(q.rejected());
    JsonObject out = new JsonObject()
        .put("vendor", v.def.vendor()).put("name", v.def.displayName()).put("kind", v.def.kind()).put("source", v.source)
        .put("quotes", q == null ? 0 : q.quotes().size()).put("rejected", rows[0]).put("skipped", rows[1])
        .put("freshness", f == null ? (v.expired != null ? "expired" : "unavailable") : f.state().name().toLowerCase())
        .put("ageSeconds", f == null ? null : f.age().toSeconds())
        .put("lastSuccess", str(v.lastSuccess)).put("lastAttempt", str(v.lastAttempt))
        .put("lastError", dev.gpurent.config.UserText.withoutPaths(v.lastError)).put("lastErrorAt", str(v.lastErrorAt))
        .put("notice", v.notice)
        .put("breaker", v.breaker.state().name().toLowerCase()).put("refreshes", v.refreshes).put("failures", v.failures);
    if (refused) {
      List<String> lines = q == null ? List.of() : q.rejected().stream().map(dev.gpurent.config.UserText::withoutPaths).toList();
      out.put("refused", new JsonObject(RefusedRows.of(lines, RefusedRows.LIMIT).toMap()));
    }
    return out;
  }

  private static String str(Instant i) {
    return i == null ? null : i.toString();
  }

  private static String message(Throwable t) {
    String m = t.getMessage();
    if (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) return message(t.getCause());
    return Objects.requireNonNullElse(m, t.getClass().getSimpleName());
  }
}
