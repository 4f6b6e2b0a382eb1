package dev.gpurent.adapter;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.Stock;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Kind {@code tencent-cvm}: Tencent Cloud CVM GPU instances at list price, from the CVM API
 * (version 2017-03-12, endpoint {@code https://cvm.tencentcloudapi.com/}, requests signed with
 * TC3-HMAC-SHA256, see {@link CloudSigning#tc3}).
 *
 * <p>Per region of the YAML's {@code regions}:
 * <ol>
 *   <li>{@code DescribeZoneInstanceConfigInfos}, filtered by {@code instance-charge-type} (the
 *       charge types the YAML's {@code billing} needs) and, when given, {@code instance-family}
 *       (the YAML's {@code families}): what each zone sells. The API returns the whole list in one
 *       answer (its only parameter is Filters: it does not page). Each InstanceTypeQuotaItem:
 *       <ul>
 *         <li>{@code Gpu} 0 and no {@code GpuCount}: rejected, "not a GPU instance";</li>
 *         <li>{@code Status} SELL ("表示实例在售") is the stock "available"; SOLD_OUT ("表示实例已售罄")
 *             is priced all the same and carried as "unavailable" with its {@code SoldOutReason}, so the
 *             ranking can say a cheaper type is sold out; any other Status is rejected as not on sale;</li>
 *         <li>GPU count: {@code GpuCount} ("实例机型映射的物理GPU卡数，单位：卡。vGPU卡型小于1"), else
 *             {@code Gpu} ("实例的GPU数量");</li>
 *         <li>GPU model: {@code Externals.GPUDesc}, resolved through the catalog (as written, or
 *             without a leading count such as "1 * "); an item without it, or naming an unknown
 *             card, is rejected with that reason (no model is guessed from the family name).</li>
 *       </ul></li>
 *   <li>{@code InquiryPriceRunInstances} per GPU instance type, zone and billing mode (one
 *       instance, the YAML's {@code imageId}): {@code Price.InstancePrice}. List prices, not the
 *       account's: POSTPAID_BY_HOUR (按量计费) -> on-demand, {@code UnitPrice} per hour (not
 *       {@code UnitPriceDiscount}); PREPAID (包年包月) with {@code InstanceChargePrepaid.Period} 1, 12
 *       or 36 months -> monthly, yearly, 3-year, {@code OriginalPrice} for the period (not
 *       {@code DiscountPrice}; a 3-year price is spread per year); SPOTPAID (竞价实例) -> spot,
 *       {@code UnitPrice} per hour. A negotiated discount is the YAML's {@code terms.discount}.</li>
 * </ol>
 * Field meanings: the CVM API reference (InstanceTypeQuotaItem, ItemPrice, Price) as the official
 * SDKs carry it (TencentCloud/tencentcloud-sdk-*, cvm v20170312 models). Prices are CNY.
 * Regions carry their country ({@link #COUNTRIES}).
 *
 * <p>Keys: {@code TENCENTCLOUD_SECRET_ID} and {@code TENCENTCLOUD_SECRET_KEY} (or the variables
 * the YAML names in {@code secretIdEnv} / {@code secretKeyEnv}), read from the environment at each
 * fetch, never from the YAML, never logged or put in a message. Requests are sent one at a time,
 * at most {@code maxRequests} a fetch (default 2000), each with the vendor's {@code timeout}.
 */
public final class TencentCvmAdapter {

  public static final String KIND = "tencent-cvm";
  static final String SERVICE = "cvm";
  static final String VERSION = "2017-03-12";
  static final String CONTENT_TYPE = "application/json; charset=utf-8";

  /**
   * Region ids as Tencent Cloud lists them (地域和可用区, https://cloud.tencent.com/document/product/213/6091)
   * and the country each is in; a zone ({@code ap-guangzhou-2}) takes its region's.
   */
  static final Map<String, String> COUNTRIES = Map.ofEntries(
      Map.entry("ap-guangzhou", "CN"), Map.entry("ap-shanghai", "CN"), Map.entry("ap-nanjing", "CN"),
      Map.entry("ap-beijing", "CN"), Map.entry("ap-chengdu", "CN"), Map.entry("ap-chongqing", "CN"),
      Map.entry("ap-shenzhen-fsi", "CN"), Map.entry("ap-shanghai-fsi", "CN"), Map.entry("ap-beijing-fsi", "CN"),
      Map.entry("ap-hongkong", "HK"), Map.entry("ap-taipei", "TW"), Map.entry("ap-singapore", "SG"),
      Map.entry("ap-bangkok", "TH"), Map.entry("ap-jakarta", "ID"), Map.entry("ap-seoul", "KR"), Map.entry("ap-tokyo", "JP"),
      Map.entry("ap-mumbai", "IN"), Map.entry("na-siliconvalley", "US"), Map.entry("na-ashburn", "US"),
      Map.entry("na-toronto", "CA"), Map.entry("eu-frankfurt", "DE"), Map.entry("sa-saopaulo", "BR"));

  private static final Pattern LEADING_COUNT = Pattern.compile("^\\s*\\d+(\\.\\d+)?\\s*[*xX×]\\s*");

  private TencentCvmAdapter() {}

  /** The adapter, reading keys with {@code env} and timestamps from {@code clock} (tests pass their own). */
  static Adapter adapter(Vertx vertx, VendorDefinition def, GpuCatalog catalog, Function<String, String> env, Clock clock) {
    CloudApi.KeyNames keys = CloudApi.keyNames(def, "secretIdEnv", "TENCENTCLOUD_SECRET_ID", "secretKeyEnv",
        "TENCENTCLOUD_SECRET_KEY", List.of("secretId", "secretKey", "SecretId", "SecretKey"));
    String source = def.config().getString("source", "https://cvm.tencentcloudapi.com/");
    if (!source.startsWith("http://") && !source.startsWith("https://")) {
      VendorDefinition.fail(def.where(), "source", "must be the API endpoint URL, got '" + source + "'");
    }
    List<String> regions = strings(def, "regions");
    if (regions.isEmpty()) VendorDefinition.fail(def.where(), "regions", "list at least one region (ap-guangzhou, ap-shanghai...)");
    List<Billing> billing = billings(def);
    String imageId = def.config().getString("imageId", "");
    if (imageId.isBlank()) {
      VendorDefinition.fail(def.where(), "imageId", "is required: InquiryPriceRunInstances prices an instance with an image; "
          + "give a public image id (DescribeImages)");
    }
    Duration timeout = PayloadSource.timeout(def);
    int maxRequests = def.config().getInteger("maxRequests", 2000);
    return new Adapter(vertx, def, catalog, env, clock, keys, source, regions, strings(def, "families"), billing, imageId,
        timeout.toMillis(), maxRequests);
  }

  static List<String> strings(VendorDefinition def, String key) {
    JsonArray a = def.config().getJsonArray(key);
    List<String> out = new ArrayList<>();
    if (a != null) for (Object o : a) if (o != null && !o.toString().isBlank()) out.add(o.toString().trim());
    return out;
  }

  static List<Billing> billings(VendorDefinition def) {
    List<String> names = strings(def, "billing");
    List<Billing> out = new ArrayList<>();
    for (String n : names.isEmpty() ? List.of("on-demand", "monthly", "yearly", "3-year", "spot") : names) {
      Billing b;
      try {
        b = Billing.parse(n);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(def.where() + ": billing: " + e.getMessage());
      }
      if (b == Billing.THREE_MONTHS || b == Billing.SIX_MONTHS) {
        VendorDefinition.fail(def.where(), "billing", b.wire() + " is not priced by this adapter (on-demand, monthly, yearly, "
            + "3-year, spot)");
      }
      out.add(b);
    }
    return out;
  }

  /** The InstanceChargeType a billing mode is bought with. */
  static String chargeType(Billing b) {
    return switch (b) {
      case ON_DEMAND -> "POSTPAID_BY_HOUR";
      case SPOT -> "SPOTPAID";
      default -> "PREPAID";
    };
  }

  /** InstanceChargePrepaid.Period, in months, of a prepaid billing mode. */
  static int period(Billing b) {
    return switch (b) {
      case MONTHLY -> 1;
      case YEARLY -> 12;
      case THREE_YEARS -> 36;
      default -> 0;
    };
  }

  /** A GPU instance type a zone sells, from DescribeZoneInstanceConfigInfos. */
  record Sold(String zone, String instanceType, String chargeType, String gpuId, double gpus, double vcpus, double ramGiB,
              Stock stock) {}

  /**
   * The GPU instance types of one DescribeZoneInstanceConfigInfos answer; every other item is added
   * to {@code rejected} with its reason.
   */
  static List<Sold> parseZoneConfigs(JsonObject body, GpuCatalog catalog, List<String> rejected) throws IOException {
    JsonObject resp = response(body, "DescribeZoneInstanceConfigInfos");
    if (!(resp.getValue("InstanceTypeQuotaSet") instanceof JsonArray items)) {
      throw new IOException("DescribeZoneInstanceConfigInfos: no InstanceTypeQuotaSet in the answer");
    }
    List<Sold> out = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      if (!(items.getValue(i) instanceof JsonObject it)) continue;
      String zone = it.getString("Zone", "");
      String type = it.getString("InstanceType", "");
      String charge = it.getString("InstanceChargeType", "");
      String where = zone + " " + type + " (" + charge + ")";
      double gpuCount = CloudApi.decimal(it.getValue("GpuCount")).map(BigDecimal::doubleValue).orElse(0.0);
      double gpu = CloudApi.decimal(it.getValue("Gpu")).map(BigDecimal::doubleValue).orElse(0.0);
      if (gpuCount <= 0 && gpu <= 0) {
        rejected.add(where + ": not a GPU instance (Gpu " + fmt(gpu) + ")");
        continue;
      }
      String status = it.getString("Status");
      String why = it.getString("SoldOutReason", "");
      Stock stock = "SELL".equals(status) ? Stock.available(null, "Status SELL")
          : "SOLD_OUT".equals(status) ? Stock.unavailable("Status SOLD_OUT" + (why.isBlank() ? "" : ": " + why)) : null;
      if (stock == null) {
        rejected.add(where + ": not on sale (Status " + status + (why.isBlank() ? "" : ": " + why) + ")");
        continue;
      }
      JsonObject ext = it.getValue("Externals") instanceof JsonObject e ? e : new JsonObject();
      String desc = ext.getString("GPUDesc");
      if (desc == null || desc.isBlank()) {
        rejected.add(where + ": GPU model not stated (no Externals.GPUDesc)");
        continue;
      }
      Optional<Gpu> g = gpu(catalog, desc);
      if (g.isEmpty()) {
        rejected.add(where + ": unknown GPU '" + desc + "' (Externals.GPUDesc)");
        continue;
      }
      out.add(new Sold(zone, type, charge, g.get().id(), gpuCount > 0 ? gpuCount : gpu,
          CloudApi.decimal(it.getValue("Cpu")).map(BigDecimal::doubleValue).orElse(0.0),
          CloudApi.decimal(it.getValue("Memory")).map(BigDecimal::doubleValue).orElse(0.0), stock));
    }
    return out;
  }

  static Optional<Gpu> gpu(GpuCatalog catalog, String desc) {
    Optional<Gpu> g = catalog.find(desc);
    if (g.isEmpty()) g = catalog.find(LEADING_COUNT.matcher(desc).replaceFirst(""));
    return g;
  }

  /**
   * The list price an InquiryPriceRunInstances answer gives for {@code billing}, per the unit
   * {@link #unit} says; fails (IllegalArgumentException) with the reason when it has none.
   */
  static BigDecimal parseInquiry(JsonObject body, Billing billing) throws IOException {
    JsonObject resp = response(body, "InquiryPriceRunInstances");
    JsonObject price = resp.getValue("Price") instanceof JsonObject p ? p : null;
    JsonObject inst = price != null && price.getValue("InstancePrice") instanceof JsonObject ip ? ip : null;
    if (inst == null) throw new IOException("InquiryPriceRunInstances: no Price.InstancePrice in the answer");
    if (billing == Billing.ON_DEMAND || billing == Billing.SPOT) {
      String unit = inst.getString("ChargeUnit", "");
      if (!unit.equals("HOUR")) throw new IllegalArgumentException("ChargeUnit '" + unit + "', not HOUR");
      return CloudApi.decimal(inst.getValue("UnitPrice"))
          .orElseThrow(() -> new IllegalArgumentException("no UnitPrice (the list price per hour)"));
    }
    BigDecimal total = CloudApi.decimal(inst.getValue("OriginalPrice"))
        .orElseThrow(() -> new IllegalArgumentException("no OriginalPrice (the list price of the prepaid period)"));
    return billing == Billing.THREE_YEARS ? spread(total, 3) : total;
  }

  /** The price unit of a parsed price. */
  static PriceUnit unit(Billing b) {
    return switch (b) {
      case ON_DEMAND, SPOT -> PriceUnit.HOUR;
      case MONTHLY -> PriceUnit.MONTH;
      default -> PriceUnit.YEAR;
    };
  }

  static BigDecimal spread(BigDecimal total, int years) {
    BigDecimal per = total.divide(BigDecimal.valueOf(years), Math.max(total.scale(), 2) + 4, RoundingMode.HALF_EVEN).stripTrailingZeros();
    return per.scale() < 0 ? per.setScale(0) : per;
  }

  /** The answer's Response, or an IOException carrying the API's own error (Code: Message). */
  static JsonObject response(JsonObject body, String action) throws IOException {
    if (!(body.getValue("Response") instanceof JsonObject resp)) throw new IOException(action + ": no Response in the answer");
    if (resp.getValue("Error") instanceof JsonObject err) {
      throw new IOException(action + ": " + err.getString("Code", "error") + ": " + err.getString("Message", ""));
    }
    return resp;
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  /** One Tencent CVM vendor. */
  static final class Adapter extends SignedCloudAdapter {
    private final String host;
    private final List<String> families;
    private final String imageId;

    private Adapter(Vertx vertx, VendorDefinition def, GpuCatalog catalog, Function<String, String> env, Clock clock,
                    CloudApi.KeyNames keyNames, String source, List<String> regions, List<String> families,
                    List<Billing> billing, String imageId, long timeoutMs, int maxRequests) {
      super(KIND, "the Tencent Cloud CVM API", vertx, def, catalog, env, clock, keyNames, source, regions, billing, timeoutMs,
          maxRequests);
      URI u = URI.create(source);
      this.host = u.getPort() < 0 ? u.getHost() : u.getHost() + ":" + u.getPort();
      this.families = families;
      this.imageId = imageId;
    }

    @Override
    Future<Void> region(CloudApi.Keys keys, String region, Map<String, Quote> quotes, List<String> rejected) {
      JsonArray filters = new JsonArray().add(new JsonObject().put("Name", "instance-charge-type")
          .put("Values", new JsonArray(billing.stream().map(TencentCvmAdapter::chargeType).distinct().toList())));
      if (!families.isEmpty()) filters.add(new JsonObject().put("Name", "instance-family").put("Values", new JsonArray(families)));
      return call(keys, region, "DescribeZoneInstanceConfigInfos", new JsonObject().put("Filters", filters))
          .compose(body -> {
            List<Sold> sold;
            try {
              sold = parseZoneConfigs(body, catalog, rejected);
            } catch (IOException e) {
              return Future.failedFuture(new IOException(region + ": " + e.getMessage()));
            }
            Future<Void> chain = Future.succeededFuture();
            for (Sold s : sold) {
              for (Billing b : billing) {
                if (!chargeType(b).equals(s.chargeType())) continue;
                chain = chain.compose(v -> price(keys, region, s, b, quotes, rejected));
              }
            }
            return chain;
          });
    }

    private Future<Void> price(CloudApi.Keys keys, String region, Sold s, Billing b, Map<String, Quote> quotes,
                               List<String> rejected) {
      JsonObject req = new JsonObject().put("Placement", new JsonObject().put("Zone", s.zone())).put("ImageId", imageId)
          .put("InstanceType", s.instanceType()).put("InstanceChargeType", chargeType(b)).put("InstanceCount", 1);
      if (period(b) > 0) req.put("InstanceChargePrepaid", new JsonObject().put("Period", period(b)));
      return call(keys, region, "InquiryPriceRunInstances", req).compose(body -> {
        String where = s.zone() + " " + s.instanceType() + " " + b.wire();
        BigDecimal amount;
        try {
          amount = parseInquiry(body, b);
        } catch (IllegalArgumentException e) {
          rejected.add(where + ": " + e.getMessage());
          return Future.succeededFuture();
        } catch (IOException e) {
          if (e.getMessage().contains(": ResourceInsufficient") || e.getMessage().contains(": ResourcesSoldOut")) {
            rejected.add(where + ": " + e.getMessage());
            return Future.succeededFuture();
          }
          return Future.failedFuture(e);
        }
        if (amount.signum() <= 0) {
          rejected.add(where + ": price " + amount.toPlainString() + " CNY is not an offer");
          return Future.succeededFuture();
        }
        Quote q = new Quote(def.vendor(), s.zone(), s.instanceType(), s.gpuId(), s.gpus(), s.vcpus(), s.ramGiB(), b,
            new Money(amount, "CNY"), unit(b), clock.instant(), KIND + ":" + source).withCountry(CloudApi.country(COUNTRIES, s.zone()))
            .withStock(s.stock());
        quotes.merge(q.key(), q, (a, c) -> c.price().compareTo(a.price()) < 0 ? c : a);
        return Future.succeededFuture();
      });
    }

    /** One signed POST; the answer as JSON (an HTTP error or a non-JSON answer fails). */
    Future<JsonObject> call(CloudApi.Keys keys, String region, String action, JsonObject payload) {
      Future<JsonObject> over = overBudget();
      if (over != null) return over;
      String body = payload.encode();
      long ts = clock.instant().getEpochSecond();
      CloudSigning.Tc3 sig = CloudSigning.tc3(keys.id(), keys.secret(), SERVICE, host, CONTENT_TYPE, body, ts);
      String what = action + " " + region;
      return client.postAbs(source).timeout(timeoutMs)
          .putHeader("Content-Type", CONTENT_TYPE).putHeader("Host", host)
          .putHeader("X-TC-Action", action).putHeader("X-TC-Version", VERSION).putHeader("X-TC-Region", region)
          .putHeader("X-TC-Timestamp", Long.toString(ts)).putHeader("Authorization", sig.authorization())
          .sendBuffer(Buffer.buffer(body))
          .recover(e -> Future.failedFuture(new IOException(what + ": " + e.getMessage())))
          .compose(resp -> answer(resp, what));
    }
  }

  static Future<JsonObject> answer(HttpResponse<Buffer> resp, String what) {
    if (resp.statusCode() != 200) {
      return Future.failedFuture(new IOException(what + ": HTTP " + resp.statusCode()));
    }
    try {
      return Future.succeededFuture(CloudApi.json(resp.body(), what));
    } catch (IOException e) {
      return Future.failedFuture(e);
    }
  }
}
