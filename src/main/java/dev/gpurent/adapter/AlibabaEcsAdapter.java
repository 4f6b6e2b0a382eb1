package dev.gpurent.adapter;

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
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kind {@code alibaba-ecs}: Alibaba Cloud ECS GPU instance types at list price, from the ECS API
 * (version 2014-05-26, RPC style, requests signed with ACS3-HMAC-SHA256, see {@link CloudSigning#acs3}).
 *
 * <p>Per region of the YAML's {@code regions}:
 * <ol>
 *   <li>{@code DescribeAvailableResource} (DestinationResource InstanceType, IoOptimized optimized,
 *       InstanceChargeType PostPaid for on-demand and spot, PrePaid for subscriptions): the
 *       instance types a zone lists ({@code SupportedResource.Value}), each with its stock: Status
 *       Available ("资源充足") or SoldOut ("资源已售罄"), and StatusCategory WithStock, ClosedWithStock
 *       ("库存接近水位低线") or WithoutStock ("库存告罄"). A type is available in the region when some
 *       zone lists it Available and not WithoutStock, else unavailable (priced all the same, never
 *       picked, so the ranking can say a cheaper type is sold out). The
 *       API answers the whole region at once; it has no paging parameter. An instance type of no
 *       GPU family ({@link #FAMILIES}) is not priced: "not a GPU instance".</li>
 *   <li>{@code DescribePrice} per GPU instance type and billing mode (ResourceType instance):
 *       PostPaid pay-as-you-go, PriceUnit Hour -> on-demand; PrePaid subscriptions, PriceUnit Month
 *       Period 1 -> monthly, Year 1 -> yearly, Year 3 -> 3-year (spread per year); PostPaid with
 *       SpotStrategy SpotAsPriceGo -> spot. The price is {@code PriceInfo.Price.OriginalPrice}, the
 *       list price ("原价"), never {@code DiscountPrice} or {@code TradePrice}, which carry the
 *       account's own discounts; for spot, {@code TradePrice}, which under SpotAsPriceGo is the
 *       spot price itself (see ../shared/data/PROVENANCE.md, Chinese clouds). Currency as the
 *       answer says ({@code Price.Currency}).</li>
 * </ol>
 * Field meanings: the ECS API reference for DescribeAvailableResource and DescribePrice. GPU
 * model and count come from the instance-type documentation, cited at {@link #FAMILIES} and
 * {@link #gpuCount}. Regions carry their country ({@link #COUNTRIES}).
 *
 * <p>Keys: {@code ALIBABA_CLOUD_ACCESS_KEY_ID} and {@code ALIBABA_CLOUD_ACCESS_KEY_SECRET} (or the
 * variables named in {@code accessKeyIdEnv} / {@code accessKeySecretEnv}), from the environment
 * only, never logged. {@code source} may hold {@code {region}} for the regional endpoint
 * ({@code https://ecs.{region}.aliyuncs.com/}). Requests go one at a time, at most
 * {@code maxRequests} a fetch.
 */
public final class AlibabaEcsAdapter {

  public static final String KIND = "alibaba-ecs";
  static final String VERSION = "2014-05-26";
  static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  /**
   * GPU instance families and their card, from Alibaba Cloud's ECS documentation: "GPU计算型实例概述"
   * (GPU-accelerated compute-optimized instance families: gn6i "GPU加速器：T4 ... 单GPU显存16 GB",
   * gn6e "NVIDIA V100（32 GB NVLink）", gn6v "NVIDIA V100 ... 单GPU显存16 GB HBM2", gn5 "NVIDIA P100",
   * gn5i "NVIDIA P4"; mirror SkyeYXL/ecs cn.zh-CN/实例/选择实例规格/GPU计算型/GPU计算型实例概述.md) and
   * "实例规格命名及分类" (7i: "GPU 类型为 A10 且显存为 24 GB"; 7s: "用于第 7 代 A30 GPU"). The
   * vGPU families (vgn5i, vgn6i: "分片虚拟化后的虚拟GPU", a share of a card) are not priced here.
   */
  static final Map<String, String> FAMILIES = Map.of(
      "gn5", "p100",
      "gn5i", "p4",
      "gn6i", "t4",
      "gn6v", "v100-16g",
      "gn6e", "v100-32g",
      "gn7i", "a10",
      "gn7s", "a30");

  /**
   * GPU counts of the instance types listed in "GPU计算型实例概述" (its GPU column, e.g.
   * ecs.gn6i-c24g1.24xlarge "T4*4"), where the naming rule below would not give the listed count.
   */
  static final Map<String, Integer> LISTED_COUNTS = Map.of("ecs.gn5-c8g1.14xlarge", 8);

  /**
   * Region ids as Alibaba Cloud lists them (ECS 地域和可用区) and each one's country; cn-hongkong is HK.
   */
  static final Map<String, String> COUNTRIES = Map.ofEntries(
      Map.entry("cn-qingdao", "CN"), Map.entry("cn-beijing", "CN"), Map.entry("cn-zhangjiakou", "CN"),
      Map.entry("cn-huhehaote", "CN"), Map.entry("cn-wulanchabu", "CN"), Map.entry("cn-hangzhou", "CN"),
      Map.entry("cn-shanghai", "CN"), Map.entry("cn-nanjing", "CN"), Map.entry("cn-fuzhou", "CN"),
      Map.entry("cn-shenzhen", "CN"), Map.entry("cn-heyuan", "CN"), Map.entry("cn-guangzhou", "CN"),
      Map.entry("cn-chengdu", "CN"), Map.entry("cn-wuhan-lr", "CN"), Map.entry("cn-hongkong", "HK"),
      Map.entry("ap-northeast-1", "JP"), Map.entry("ap-northeast-2", "KR"), Map.entry("ap-southeast-1", "SG"),
      Map.entry("ap-southeast-3", "MY"), Map.entry("ap-southeast-5", "ID"), Map.entry("ap-southeast-6", "PH"),
      Map.entry("ap-southeast-7", "TH"), Map.entry("us-east-1", "US"), Map.entry("us-west-1", "US"),
      Map.entry("eu-west-1", "GB"), Map.entry("eu-central-1", "DE"), Map.entry("me-east-1", "AE"),
      Map.entry("me-central-1", "SA"));

  /** ecs.FAMILY-cXgY.SIZE or ecs.FAMILY.SIZE. */
  private static final Pattern TYPE = Pattern.compile("^ecs\\.([a-z0-9]+)(?:-c(\\d+)g(\\d+))?\\.\\s*(\\d*)(xlarge|large)$");

  private AlibabaEcsAdapter() {}

  /** The adapter, with the key lookup, clock and signature nonces given (tests pass their own). */
  static Adapter adapter(Vertx vertx, VendorDefinition def, GpuCatalog catalog, Function<String, String> env, Clock clock,
                         Supplier<String> nonce) {
    CloudApi.KeyNames keys = CloudApi.keyNames(def, "accessKeyIdEnv", "ALIBABA_CLOUD_ACCESS_KEY_ID", "accessKeySecretEnv",
        "ALIBABA_CLOUD_ACCESS_KEY_SECRET", List.of("accessKeyId", "accessKeySecret", "AccessKeyId", "AccessKeySecret"));
    String source = def.config().getString("source", "https://ecs.{region}.aliyuncs.com/");
    if (!source.startsWith("http://") && !source.startsWith("https://")) {
      VendorDefinition.fail(def.where(), "source", "must be the API endpoint URL, got '" + source + "'");
    }
    List<String> regions = TencentCvmAdapter.strings(def, "regions");
    if (regions.isEmpty()) VendorDefinition.fail(def.where(), "regions", "list at least one region (cn-hangzhou, cn-shanghai...)");
    return new Adapter(vertx, def, catalog, env, clock, nonce, keys, source, regions, TencentCvmAdapter.billings(def),
        PayloadSource.timeout(def).toMillis(), def.config().getInteger("maxRequests", 2000));
  }

  /** A GPU instance type: its card and how many, or why it is not one. */
  record GpuType(String instanceType, String gpuId, int gpus, int vcpus) {}

  /** The GPU of an instance type per the documentation, or the reason it is not priced. */
  static Object gpuType(String instanceType) {
    Matcher m = TYPE.matcher(instanceType.trim());
    String family = m.matches() ? m.group(1) : instanceType.replaceFirst("^ecs\\.", "").split("[.-]")[0];
    if (family.startsWith("vgn") || family.startsWith("sgn")) return "a vGPU share (" + family + "), not a whole GPU: not priced";
    String gpu = FAMILIES.get(family);
    if (gpu == null) return "not a GPU instance (family " + family + ")";
    if (!m.matches()) return "instance type name not understood (expected ecs.FAMILY-cXgY.SIZE)";
    Integer listed = LISTED_COUNTS.get(instanceType.trim());
    int vcpus = vcpus(m.group(4), m.group(5));
    Integer count = listed != null ? listed : gpuCount(m.group(2), m.group(3), vcpus);
    if (count == null) return "GPU count not stated by the name " + instanceType + " (no cXgY ratio giving a whole count)";
    return new GpuType(instanceType.trim(), gpu, count, vcpus);
  }

  /**
   * vCPUs from the size: "ecs.ebmgn7ix.32xlarge ... 拥有32 * 4 = 128 vCPU" (实例规格命名及分类), so
   * NxLarge is 4N vCPUs, xlarge 4 and large 2 (as every listed gn5/gn6 row shows).
   */
  static int vcpus(String n, String size) {
    if (size.equals("large")) return 2;
    return (n == null || n.isEmpty() ? 1 : Integer.parseInt(n)) * 4;
  }

  /**
   * GPUs from the name: "c8g1 表示 vCPU:GPU=8:1" (实例规格命名及分类), so vCPUs x Y / X, when whole.
   * Every row of "GPU计算型实例概述" but one (see {@link #LISTED_COUNTS}) agrees with it.
   */
  static Integer gpuCount(String c, String g, int vcpus) {
    if (c == null || g == null) return null;
    int x = Integer.parseInt(c);
    int y = Integer.parseInt(g);
    if (x == 0 || vcpus * y % x != 0 || vcpus * y / x < 1) return null;
    return vcpus * y / x;
  }

  /**
   * The instance types a DescribeAvailableResource answer lists in its available zones, in order,
   * each with its stock in the region (see the class comment), in the answer's words.
   */
  static Map<String, Stock> parseStock(JsonObject body) throws IOException {
    error(body, "DescribeAvailableResource");
    if (!(body.getValue("AvailableZones") instanceof JsonObject zones) || !(zones.getValue("AvailableZone") instanceof JsonArray list)) {
      throw new IOException("DescribeAvailableResource: no AvailableZones.AvailableZone in the answer");
    }
    Map<String, Stock> out = new LinkedHashMap<>();
    for (Object z : list) {
      if (!(z instanceof JsonObject zone) || !"available".equalsIgnoreCase(zone.getString("Status", ""))) continue;
      JsonArray resources = zone.getValue("AvailableResources") instanceof JsonObject r && r.getValue("AvailableResource") instanceof JsonArray a
          ? a : new JsonArray();
      for (Object o : resources) {
        if (!(o instanceof JsonObject res) || !"instancetype".equalsIgnoreCase(res.getString("Type", ""))) continue;
        JsonArray supported = res.getValue("SupportedResources") instanceof JsonObject s && s.getValue("SupportedResource") instanceof JsonArray a2
            ? a2 : new JsonArray();
        for (Object v : supported) {
          if (!(v instanceof JsonObject sr) || sr.getValue("Value") == null) continue;
          String status = sr.getString("Status", ""), category = sr.getString("StatusCategory", "");
          if (!status.equals("Available") && !status.equals("SoldOut")) continue;
          String said = "Status " + status + (category.isEmpty() ? "" : ", StatusCategory " + category);
          Stock here = status.equals("Available") && !category.equals("WithoutStock") ? Stock.available(null, said) : Stock.unavailable(said);
          out.merge(sr.getValue("Value").toString(), here, (was, now) -> was.isAvailable() ? was : now);
        }
      }
    }
    return out;
  }

  /** The list price of a DescribePrice answer for {@code billing} (OriginalPrice; TradePrice for spot), with its currency. */
  static Money parsePrice(JsonObject body, Billing billing) throws IOException {
    error(body, "DescribePrice");
    JsonObject info = body.getValue("PriceInfo") instanceof JsonObject i ? i : null;
    JsonObject price = info != null && info.getValue("Price") instanceof JsonObject p ? p : null;
    if (price == null) throw new IOException("DescribePrice: no PriceInfo.Price in the answer");
    String field = billing == Billing.SPOT ? "TradePrice" : "OriginalPrice";
    BigDecimal amount = CloudApi.decimal(price.getValue(field))
        .orElseThrow(() -> new IllegalArgumentException("no " + field + " in PriceInfo.Price"));
    String currency = price.getString("Currency", "CNY").toUpperCase(Locale.ROOT);
    return new Money(billing == Billing.THREE_YEARS ? TencentCvmAdapter.spread(amount, 3) : amount, currency);
  }

  /** PriceUnit and Period of a billing mode's DescribePrice request. */
  static Map<String, String> priceParams(Billing b) {
    Map<String, String> p = new LinkedHashMap<>();
    switch (b) {
      case ON_DEMAND -> p.put("PriceUnit", "Hour");
      case SPOT -> {
        p.put("PriceUnit", "Hour");
        p.put("SpotStrategy", "SpotAsPriceGo");
      }
      case MONTHLY -> {
        p.put("PriceUnit", "Month");
        p.put("Period", "1");
      }
      case YEARLY -> {
        p.put("PriceUnit", "Year");
        p.put("Period", "1");
      }
      case THREE_YEARS -> {
        p.put("PriceUnit", "Year");
        p.put("Period", "3");
      }
      default -> throw new IllegalArgumentException(b.wire() + " is not priced");
    }
    return p;
  }

  /** An error answer ({"Code", "Message"}) as an IOException naming it. */
  static void error(JsonObject body, String action) throws IOException {
    if (body.containsKey("Code") && body.containsKey("Message") && !body.containsKey("PriceInfo") && !body.containsKey("AvailableZones")) {
      throw new IOException(action + ": " + body.getString("Code") + ": " + body.getString("Message"));
    }
  }

  /** One Alibaba ECS vendor. */
  static final class Adapter extends SignedCloudAdapter {
    private final Supplier<String> nonce;

    private Adapter(Vertx vertx, VendorDefinition def, GpuCatalog catalog, Function<String, String> env, Clock clock,
                    Supplier<String> nonce, CloudApi.KeyNames keyNames, String source, List<String> regions,
                    List<Billing> billing, long timeoutMs, int maxRequests) {
      super(KIND, "the Alibaba Cloud ECS API", vertx, def, catalog, env, clock, keyNames, source, regions, billing, timeoutMs,
          maxRequests);
      this.nonce = nonce;
    }

    @Override
    Future<Void> region(CloudApi.Keys keys, String region, Map<String, Quote> quotes, List<String> rejected) {
      Future<Void> chain = Future.succeededFuture();
      boolean payg = billing.contains(Billing.ON_DEMAND) || billing.contains(Billing.SPOT);
      boolean subscription = billing.stream().anyMatch(Billing::isCommitment);
      for (String charge : List.of("PostPaid", "PrePaid")) {
        if (charge.equals("PostPaid") ? !payg : !subscription) continue;
        List<Billing> modes = billing.stream().filter(b -> charge.equals("PostPaid") != b.isCommitment()).toList();
        Map<String, String> q = new LinkedHashMap<>();
        q.put("RegionId", region);
        q.put("DestinationResource", "InstanceType");
        q.put("IoOptimized", "optimized");
        q.put("InstanceChargeType", charge);
        chain = chain.compose(v -> call(keys, region, "DescribeAvailableResource", q)).compose(body -> {
          Map<String, Stock> types;
          try {
            types = parseStock(body);
          } catch (IOException e) {
            return Future.failedFuture(new IOException(region + ": " + e.getMessage()));
          }
          Future<Void> prices = Future.succeededFuture();
          List<String> notGpu = new ArrayList<>();
          for (String t : types.keySet()) {
            Object g = gpuType(t);
            if (!(g instanceof GpuType gt)) {
              if (String.valueOf(g).startsWith("not a GPU instance")) notGpu.add(t);
              else rejected.add(region + " " + t + ": " + g);
              continue;
            }
            for (Billing b : modes) prices = prices.compose(v -> price(keys, region, gt, types.get(t), b, quotes, rejected));
          }
          if (!notGpu.isEmpty()) {
            rejected.add(region + " (" + charge + "): " + notGpu.size() + " instance type" + (notGpu.size() == 1 ? " is" : "s are")
                + " not a GPU instance, not priced: " + String.join(", ", notGpu.subList(0, Math.min(10, notGpu.size())))
                + (notGpu.size() > 10 ? ", ..." : ""));
          }
          return prices;
        });
      }
      return chain;
    }

    private Future<Void> price(CloudApi.Keys keys, String region, GpuType gt, Stock stock, Billing b, Map<String, Quote> quotes,
                               List<String> rejected) {
      Map<String, String> q = new LinkedHashMap<>();
      q.put("RegionId", region);
      q.put("ResourceType", "instance");
      q.put("InstanceType", gt.instanceType());
      q.putAll(priceParams(b));
      String where = region + " " + gt.instanceType() + " " + b.wire();
      return call(keys, region, "DescribePrice", q).transform(ar -> {
        if (ar.failed()) {
          String m = String.valueOf(ar.cause().getMessage());
          // a type the region cannot price is that row's problem, not the whole fetch's
          if (m.contains("PriceNotFound") || m.contains("InvalidInstanceType") || m.contains("InstanceType.Offline")) {
            rejected.add(where + ": " + m);
            return Future.succeededFuture();
          }
          return Future.failedFuture(ar.cause());
        }
        Money price;
        try {
          price = parsePrice(ar.result(), b);
        } catch (IllegalArgumentException e) {
          rejected.add(where + ": " + e.getMessage());
          return Future.succeededFuture();
        } catch (IOException e) {
          return Future.failedFuture(e);
        }
        if (!price.isPositive()) {
          rejected.add(where + ": price " + price + " is not an offer");
          return Future.succeededFuture();
        }
        PriceUnit unit = b == Billing.MONTHLY ? PriceUnit.MONTH : b.isCommitment() ? PriceUnit.YEAR : PriceUnit.HOUR;
        Quote quote = new Quote(def.vendor(), region, gt.instanceType(), gt.gpuId(), gt.gpus(), gt.vcpus(), 0, b, price, unit,
            clock.instant(), KIND + ":" + source.replace("{region}", region)).withCountry(CloudApi.country(COUNTRIES, region))
            .withStock(stock);
        quotes.merge(quote.key(), quote, (x, y) -> y.price().compareTo(x.price()) < 0 ? y : x);
        return Future.succeededFuture();
      });
    }

    /** One signed RPC call: POST with the parameters in the query and no body. */
    Future<JsonObject> call(CloudApi.Keys keys, String region, String action, Map<String, String> query) {
      Future<JsonObject> over = overBudget();
      if (over != null) return over;
      String url = source.replace("{region}", region);
      URI u = URI.create(url);
      String host = u.getPort() < 0 ? u.getHost() : u.getHost() + ":" + u.getPort();
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("host", host);
      headers.put("x-acs-action", action);
      headers.put("x-acs-version", VERSION);
      headers.put("x-acs-date", DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC).format(clock.instant()));
      headers.put("x-acs-signature-nonce", nonce.get());
      headers.put("x-acs-content-sha256", EMPTY_SHA256);
      CloudSigning.Acs3 sig = CloudSigning.acs3(keys.id(), keys.secret(), "POST", query, headers, "");
      HttpRequest<Buffer> req = client.postAbs(url.replaceFirst("\\?.*$", "") + (url.contains("?") ? "&" : "?") + sig.canonicalQuery())
          .timeout(timeoutMs);
      headers.forEach(req::putHeader);
      req.putHeader("Authorization", sig.authorization());
      String what = action + " " + region;
      return req.send()
          .recover(e -> Future.failedFuture(new IOException(what + ": " + e.getMessage())))
          .compose(resp -> answer(resp, what));
    }
  }

  /** 200 with a JSON object, or the API's own error (Code: Message) from a 4xx/5xx answer. */
  static Future<JsonObject> answer(HttpResponse<Buffer> resp, String what) {
    if (resp.statusCode() != 200) {
      String detail = "";
      try {
        JsonObject err = CloudApi.json(resp.body(), what);
        if (err.getString("Code") != null) detail = ": " + err.getString("Code") + ": " + err.getString("Message", "");
      } catch (IOException | RuntimeException e) {
        detail = "";
      }
      return Future.failedFuture(new IOException(what + ": HTTP " + resp.statusCode() + detail));
    }
    try {
      return Future.succeededFuture(CloudApi.json(resp.body(), what));
    } catch (IOException e) {
      return Future.failedFuture(e);
    }
  }
}
