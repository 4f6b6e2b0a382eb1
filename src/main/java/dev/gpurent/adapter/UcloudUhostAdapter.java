package dev.gpurent.adapter;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Kind {@code ucloud-uhost}: UCloud UHost GPU hosts, priced by the UHost API's
 * {@code GetUHostInstancePrice} (https://docs.ucloud.cn/api/uhost-api/get_uhost_instance_price,
 * UCloudDoc-Team/api uhost-api/get_uhost_instance_price.md), signed with UCloud's SHA1 signature
 * ({@link CloudSigning#ucloud}).
 *
 * <p>UCloud prices a configuration rather than listing instance types: the YAML's
 * {@code configurations} name each host to price (region, zone, MachineType, GpuType, GPU count,
 * CPU, memory in MB, boot disk). A configuration without GPUs is refused when the YAML is read
 * ("not a GPU instance"): gpurent rents GPUs. Per configuration and billing mode, one GET with the
 * parameters in the query (as the document's request example): ChargeType Dynamic (按小时) ->
 * on-demand per hour; Month, Quantity 1 -> monthly; Year, Quantity 1 -> yearly; Year, Quantity 3
 * -> 3-year, spread per year; Preemptive (抢占式实例) -> spot per hour. The API prices one
 * configuration per call; it does not page.
 *
 * <p>Price: the {@code PriceSet} entry of the ChargeType asked for; {@code ListPrice} ("产品列表价")
 * when present, else {@code OriginalPrice} ("折前原价", list price times the account's business
 * discount), else {@code Price} ("价格，单位: 元"), which is all the document's example carries.
 * Prices are CNY (元). {@code RetCode} other than 0 fails with the API's {@code Message}.
 *
 * <p>Keys: UCloud's API key pair, {@code UCLOUD_PUBLIC_KEY} and {@code UCLOUD_PRIVATE_KEY} (or the
 * variables named in {@code publicKeyEnv} / {@code privateKeyEnv}), from the environment only; the
 * private key is never sent (it only salts the signature), never logged.
 */
public final class UcloudUhostAdapter {

  public static final String KIND = "ucloud-uhost";

  /** Region ids as UCloud lists them (地域和可用区列表, https://docs.ucloud.cn/api/summary/regionlist) and their countries. */
  static final Map<String, String> COUNTRIES = Map.ofEntries(
      Map.entry("cn-bj1", "CN"), Map.entry("cn-bj2", "CN"), Map.entry("cn-sh", "CN"), Map.entry("cn-sh2", "CN"),
      Map.entry("cn-gd", "CN"), Map.entry("cn-wlcb", "CN"), Map.entry("cn-qz", "CN"), Map.entry("hk", "HK"),
      Map.entry("tw-tp", "TW"), Map.entry("sg", "SG"), Map.entry("jpn-tky", "JP"), Map.entry("kr-seoul", "KR"),
      Map.entry("th-bkk", "TH"), Map.entry("idn-jakarta", "ID"), Map.entry("vn-sng", "VN"), Map.entry("ph-mnl", "PH"),
      Map.entry("ind-mumbai", "IN"), Map.entry("us-ca", "US"), Map.entry("us-ws", "US"), Map.entry("ge-fra", "DE"),
      Map.entry("uk-london", "GB"), Map.entry("rus-mosc", "RU"), Map.entry("uae-dubai", "AE"), Map.entry("bra-saopaulo", "BR"),
      Map.entry("afr-nigeria", "NG"));

  private UcloudUhostAdapter() {}

  /** One host to price, as the YAML names it. */
  record Host(String region, String zone, String machineType, String gpuType, String gpuId, int gpus, int cpu, int memoryMb,
              String diskType, int diskGb) {
    String offerId() {
      return machineType + "-" + gpus + "x" + gpuType + "-" + cpu + "C" + memoryMb / 1024 + "G";
    }
  }

  static Adapter adapter(Vertx vertx, VendorDefinition def, GpuCatalog catalog, Function<String, String> env, Clock clock) {
    CloudApi.KeyNames keys = CloudApi.keyNames(def, "publicKeyEnv", "UCLOUD_PUBLIC_KEY", "privateKeyEnv", "UCLOUD_PRIVATE_KEY",
        List.of("publicKey", "privateKey", "PublicKey", "PrivateKey"));
    String source = def.config().getString("source", "https://api.ucloud.cn/");
    if (!source.startsWith("http://") && !source.startsWith("https://")) {
      VendorDefinition.fail(def.where(), "source", "must be the API endpoint URL, got '" + source + "'");
    }
    JsonArray list = def.config().getJsonArray("configurations", new JsonArray());
    if (list.isEmpty()) VendorDefinition.fail(def.where(), "configurations", "list the GPU hosts to price (region, zone, machineType, "
        + "gpuType, gpu, cpu, memoryMb)");
    List<Host> hosts = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) hosts.add(host(def, catalog, list.getJsonObject(i), "configurations[" + i + "]"));
    return new Adapter(vertx, def, env, clock, keys, source, hosts, TencentCvmAdapter.billings(def),
        def.config().getString("projectId", ""), PayloadSource.timeout(def).toMillis());
  }

  /** A configuration of the YAML; fails naming the field when it is not a GPU host gpurent can price. */
  static Host host(VendorDefinition def, GpuCatalog catalog, JsonObject c, String at) {
    String region = c.getString("region", "");
    String zone = c.getString("zone", "");
    if (region.isBlank()) VendorDefinition.fail(def.where(), at + ".region", "is required (cn-bj2, hk, sg...)");
    String machineType = c.getString("machineType", "");
    int gpus = c.getInteger("gpu", 0);
    String gpuType = c.getString("gpuType", "");
    if (gpus <= 0 || gpuType.isBlank()) {
      VendorDefinition.fail(def.where(), at, "not a GPU instance (MachineType " + (machineType.isBlank() ? "unset" : machineType)
          + (gpus <= 0 ? ", no GPU" : ", no GpuType") + "): list GPU hosts only");
    }
    Optional<Gpu> gpu = catalog.find(gpuType);
    if (gpu.isEmpty()) VendorDefinition.fail(def.where(), at + ".gpuType", "unknown GPU '" + gpuType + "'");
    int cpu = c.getInteger("cpu", 0);
    int memory = c.getInteger("memoryMb", 0);
    if (cpu <= 0 || memory < 1024 || memory % 1024 != 0) {
      VendorDefinition.fail(def.where(), at, "cpu (cores) and memoryMb (a multiple of 1024, as the API requires) are required");
    }
    return new Host(region, zone, machineType, gpuType, gpu.get().id(), gpus, cpu, memory, c.getString("bootDiskType", "CLOUD_SSD"),
        c.getInteger("bootDiskGb", 40));
  }

  /** ChargeType and Quantity of a billing mode. */
  static Map<String, String> chargeParams(Billing b) {
    Map<String, String> p = new LinkedHashMap<>();
    switch (b) {
      case ON_DEMAND -> p.put("ChargeType", "Dynamic");
      case SPOT -> p.put("ChargeType", "Preemptive");
      case MONTHLY -> {
        p.put("ChargeType", "Month");
        p.put("Quantity", "1");
      }
      case YEARLY -> {
        p.put("ChargeType", "Year");
        p.put("Quantity", "1");
      }
      case THREE_YEARS -> {
        p.put("ChargeType", "Year");
        p.put("Quantity", "3");
      }
      default -> throw new IllegalArgumentException(b.wire() + " is not priced");
    }
    return p;
  }

  /** The price of a GetUHostInstancePrice answer for {@code billing}: ListPrice, else OriginalPrice, else Price. */
  static BigDecimal parsePrice(JsonObject body, Billing billing) throws IOException {
    Object ret = body.getValue("RetCode");
    if (ret == null) throw new IOException("GetUHostInstancePrice: no RetCode in the answer");
    if (!"0".equals(ret.toString())) {
      throw new IOException("GetUHostInstancePrice: RetCode " + ret + ": " + body.getString("Message", ""));
    }
    String charge = chargeParams(billing).get("ChargeType");
    if (!(body.getValue("PriceSet") instanceof JsonArray set)) throw new IOException("GetUHostInstancePrice: no PriceSet in the answer");
    for (Object o : set) {
      if (!(o instanceof JsonObject p) || !charge.equals(p.getString("ChargeType"))) continue;
      for (String field : List.of("ListPrice", "OriginalPrice", "Price")) {
        Optional<BigDecimal> v = CloudApi.decimal(p.getValue(field)).filter(d -> d.signum() > 0);
        if (v.isPresent()) return billing == Billing.THREE_YEARS ? TencentCvmAdapter.spread(v.get(), 3) : v.get();
      }
      throw new IllegalArgumentException("the " + charge + " price is missing or 0");
    }
    throw new IllegalArgumentException("no " + charge + " price in PriceSet");
  }

  /** The request parameters (signature not included) to price {@code h} as {@code b}. */
  static Map<String, String> params(Host h, Billing b, String publicKey, String projectId) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("Action", "GetUHostInstancePrice");
    p.put("Region", h.region());
    if (!h.zone().isBlank()) p.put("Zone", h.zone());
    if (!projectId.isBlank()) p.put("ProjectId", projectId);
    if (!h.machineType().isBlank()) p.put("MachineType", h.machineType());
    p.put("GpuType", h.gpuType());
    p.put("GPU", Integer.toString(h.gpus()));
    p.put("CPU", Integer.toString(h.cpu()));
    p.put("Memory", Integer.toString(h.memoryMb()));
    p.put("Count", "1");
    p.put("Disks.0.IsBoot", "True");
    p.put("Disks.0.Size", Integer.toString(h.diskGb()));
    p.put("Disks.0.Type", h.diskType());
    p.putAll(chargeParams(b));
    p.put("PublicKey", publicKey);
    return p;
  }

  /** One UCloud vendor. */
  static final class Adapter extends SignedCloudAdapter {
    private final List<Host> hosts;
    private final String projectId;

    private Adapter(Vertx vertx, VendorDefinition def, Function<String, String> env, Clock clock, CloudApi.KeyNames keyNames,
                    String source, List<Host> hosts, List<Billing> billing, String projectId, long timeoutMs) {
      // one request a host and mode, so the budget is what the file lists
      super(KIND, "the UCloud API", vertx, def, null, env, clock, keyNames, source, List.of(), billing, timeoutMs, Integer.MAX_VALUE);
      this.hosts = hosts;
      this.projectId = projectId;
    }

    @Override
    List<CloudApi.Call> calls() {
      List<CloudApi.Call> calls = new ArrayList<>();
      for (Host h : hosts) {
        for (Billing b : billing) calls.add((keys, quotes, rejected) -> price(keys, h, b, quotes, rejected));
      }
      return calls;
    }

    private Future<Void> price(CloudApi.Keys keys, Host h, Billing b, Map<String, Quote> quotes, List<String> rejected) {
      Map<String, String> p = params(h, b, keys.id(), projectId);
      String signature = CloudSigning.ucloud(p, keys.secret());
      HttpRequest<Buffer> req = client.getAbs(source).timeout(timeoutMs);
      p.forEach(req::addQueryParam);
      req.addQueryParam("Signature", signature);
      String place = h.zone().isBlank() ? h.region() : h.zone();
      String what = "GetUHostInstancePrice " + place + " " + h.offerId() + " " + b.wire();
      return req.send()
          .recover(e -> Future.failedFuture(new IOException(what + ": " + e.getMessage())))
          .compose(resp -> TencentCvmAdapter.answer(resp, what))
          .compose(body -> {
            BigDecimal amount;
            try {
              amount = parsePrice(body, b);
            } catch (IllegalArgumentException e) {
              rejected.add(place + " " + h.offerId() + " " + b.wire() + ": " + e.getMessage());
              return Future.succeededFuture();
            } catch (IOException e) {
              return Future.failedFuture(new IOException(place + ": " + e.getMessage()));
            }
            PriceUnit unit = b == Billing.MONTHLY ? PriceUnit.MONTH : b.isCommitment() ? PriceUnit.YEAR : PriceUnit.HOUR;
            Quote q = new Quote(def.vendor(), place, h.offerId(), h.gpuId(), h.gpus(), h.cpu(), h.memoryMb() / 1024.0, b,
                new Money(amount, "CNY"), unit, clock.instant(), KIND + ":" + source).withCountry(CloudApi.country(COUNTRIES, h.region()));
            quotes.merge(q.key(), q, (x, y) -> y.price().compareTo(x.price()) < 0 ? y : x);
            return Future.succeededFuture();
          });
    }
  }
}
