package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the live readers of the three signed price APIs (Tencent CVM, Alibaba ECS, UCloud UHost)
 * share: the vendor, its key variables and endpoint, one WebClient, a budget of requests a fetch,
 * and the fetch itself ({@link CloudApi#fetchAll} over the calls each API makes). Each subclass
 * signs and reads its own API; the fields keep the names its requests and quotes use.
 */
abstract class SignedCloudAdapter implements VendorAdapter {

  final Vertx vertx;
  final VendorDefinition def;
  final GpuCatalog catalog;
  final Function<String, String> env;
  final Clock clock;
  final CloudApi.KeyNames keyNames;
  final String source;
  final List<Billing> billing;
  /** The regions asked one after the other, as the vendor file lists them; none for an API asked otherwise. */
  final List<String> regions;
  final long timeoutMs;
  final int maxRequests;
  private final String kind;
  private final String api;
  WebClient client;
  int requests;

  /** {@code kind} names the plug-in, {@code api} the API in a failure ("the Tencent Cloud CVM API"). */
  SignedCloudAdapter(String kind, String api, Vertx vertx, VendorDefinition def, GpuCatalog catalog, Function<String, String> env,
                     Clock clock, CloudApi.KeyNames keyNames, String source, List<String> regions, List<Billing> billing,
                     long timeoutMs, int maxRequests) {
    this.kind = kind;
    this.api = api;
    this.vertx = vertx;
    this.def = def;
    this.catalog = catalog;
    this.env = env;
    this.clock = clock;
    this.keyNames = keyNames;
    this.source = source;
    this.regions = regions;
    this.billing = billing;
    this.timeoutMs = timeoutMs;
    this.maxRequests = maxRequests;
  }

  @Override
  public final Future<VendorQuotes> fetch() {
    if (client == null) client = WebClient.create(vertx);
    requests = 0;
    return CloudApi.fetchAll(def, keyNames, env, api, clock, calls());
  }

  /** This fetch's calls, made one after the other (the APIs rate-limit): by default a call a region of {@link #regions}. */
  List<CloudApi.Call> calls() {
    List<CloudApi.Call> calls = new ArrayList<>();
    for (String region : regions) calls.add((keys, quotes, rejected) -> region(keys, region, quotes, rejected));
    return calls;
  }

  /** One region's calls, for the APIs asked region by region; an API asked otherwise overrides {@link #calls} instead. */
  Future<Void> region(CloudApi.Keys keys, String region, Map<String, Quote> quotes, List<String> rejected) {
    throw new UnsupportedOperationException(api + " is not asked region by region");
  }

  /** Counts one request: null within {@code maxRequests} a fetch, else the failure to answer with. */
  <T> Future<T> overBudget() {
    if (++requests <= maxRequests) return null;
    return Future.failedFuture(new IOException("more than maxRequests (" + maxRequests + ") requests in one fetch"));
  }

  @Override
  public String toString() {
    return kind + ":" + source;
  }
}
