package dev.gpurent.adapter;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the three signed price APIs (Tencent CVM, Alibaba ECS, UCloud UHost) share: keys read from
 * environment variables named in the vendor YAML (never from the YAML itself, never logged, never
 * in a message), the regions' countries, and reading numbers from their JSON exactly.
 */
final class CloudApi {

  private CloudApi() {}

  /** The names of the two environment variables holding a vendor's key pair. */
  record KeyNames(String idEnv, String secretEnv) {}

  /** A key pair read from the environment. */
  record Keys(String id, String secret) {}

  /**
   * The variables a vendor names ({@code idEnvKey}, {@code secretEnvKey} in its YAML, defaulting to
   * the vendor's own conventional names); fails fast when the YAML holds a key itself.
   */
  static KeyNames keyNames(VendorDefinition def, String idEnvKey, String idDefault, String secretEnvKey, String secretDefault,
                           List<String> forbidden) {
    for (String k : forbidden) {
      if (def.config().containsKey(k)) {
        VendorDefinition.fail(def.where(), k, "keys do not belong in a vendor file: put the key in an environment variable "
            + "and name that variable in " + idEnvKey + " / " + secretEnvKey);
      }
    }
    return new KeyNames(def.config().getString(idEnvKey, idDefault), def.config().getString(secretEnvKey, secretDefault));
  }

  /** The keys, or a failure naming the unset variable (not its value: there is none). */
  static Future<Keys> keys(KeyNames names, Function<String, String> env, String api) {
    String id = env.apply(names.idEnv());
    String secret = env.apply(names.secretEnv());
    for (String[] v : new String[][] {{names.idEnv(), id}, {names.secretEnv(), secret}}) {
      if (v[1] == null || v[1].isBlank()) {
        return Future.failedFuture(new IllegalStateException("environment variable " + v[0] + " is not set: " + api
            + " needs a key pair in " + names.idEnv() + " and " + names.secretEnv()));
      }
    }
    return Future.succeededFuture(new Keys(id.trim(), secret.trim()));
  }

  /**
   * {@code text} with every key blanked out, as written or URL-encoded, and any query string cut
   * (a timeout message quotes the request URI, whose query can hold the key id and a signature).
   */
  static String redact(String text, Keys keys) {
    String out = String.valueOf(text).replaceAll("\\?[^\\s\"']+", "?...");
    if (keys != null) {
      for (String s : new String[] {keys.secret(), keys.id()}) {
        if (s == null || s.length() < 4) continue;
        out = out.replace(s, "***").replace(java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8), "***");
      }
    }
    return out;
  }

  /** A failure whose message carries no key and which has no cause that could. */
  /** One call of a price API: adds what it priced to {@code quotes}, the rows it refused to {@code rejected}. */
  @FunctionalInterface
  interface Call {
    Future<Void> run(Keys keys, Map<String, dev.gpurent.quote.Quote> quotes, List<String> rejected);
  }

  /**
   * The fetch every keyed price API shares: the keys from the environment, the calls one after
   * the other (the APIs rate-limit), one payload of everything they priced, and no key left in
   * any failure's message.
   */
  static Future<dev.gpurent.quote.VendorQuotes> fetchAll(VendorDefinition def, KeyNames names, Function<String, String> env,
                                                         String api, java.time.Clock clock, List<Call> calls) {
    return keys(names, env, api).compose(keys -> {
      Map<String, dev.gpurent.quote.Quote> quotes = new java.util.LinkedHashMap<>();
      List<String> rejected = new java.util.ArrayList<>();
      Future<Void> chain = Future.succeededFuture();
      for (Call c : calls) chain = chain.compose(v -> c.run(keys, quotes, rejected));
      return chain
          .map(v -> new dev.gpurent.quote.VendorQuotes(def.vendor(), def.displayName(), def.terms(),
              new java.util.ArrayList<>(quotes.values()), rejected, clock.instant(), def.note()))
          .recover(e -> scrubbed(e, keys));
    });
  }

  static <T> Future<T> scrubbed(Throwable e, Keys keys) {
    return Future.failedFuture(new IOException(redact(String.valueOf(e.getMessage()), keys)));
  }

  /** The body as a JSON object, or an IOException naming what it is instead. */
  static JsonObject json(Buffer body, String what) throws IOException {
    if (body == null || body.length() == 0) throw new IOException(what + ": empty answer");
    try {
      return body.toJsonObject();
    } catch (RuntimeException e) {
      String head = body.toString(java.nio.charset.StandardCharsets.UTF_8);
      head = head.length() > 80 ? head.substring(0, 80) + "..." : head;
      throw new IOException(what + ": not JSON (" + head.replaceAll("\\p{Cntrl}", " ") + ")");
    }
  }

  /** A JSON number (or numeric text) as the exact decimal the payload writes, or empty. */
  static Optional<BigDecimal> decimal(Object v) {
    return Optional.ofNullable(Decimals.of(v));
  }

  /**
   * The country of a region id, from the region's place in each vendor's own region list; "" when
   * the region is not listed (the quote is kept, without a country).
   */
  static String country(Map<String, String> table, String region) {
    String r = region == null ? "" : region;
    String best = "";
    String code = "";
    for (Map.Entry<String, String> e : table.entrySet()) {
      if ((r.equals(e.getKey()) || r.startsWith(e.getKey() + "-")) && e.getKey().length() > best.length()) {
        best = e.getKey();
        code = e.getValue();
      }
    }
    return code;
  }
}
