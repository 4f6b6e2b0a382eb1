package dev.gpurent.bench;

import dev.gpurent.config.YamlFiles;
import dev.gpurent.testing.FakeVendorServer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * What the service-level benchmarks share: a service root wired to fake vendors (as ServiceTest
 * builds it), bounded waits, load average, heap figures and histogram formatting. Benchmarks
 * print figures; none of them asserts.
 */
final class BenchSupport {

  static final Path DATA = Path.of("../shared/data");
  static final String TOKEN = "bench-admin-token";
  static final Path RUNPOD = DATA.resolve("runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json");
  static final Path VAST = DATA.resolve("skypilot-catalog-format/anycloud-sh/vast/vms.gpu.csv");
  static final Path ECB = DATA.resolve("ecb/eurofxref-daily.2025-05-09.xml");
  static final Path SPOT_ADVISOR = DATA.resolve("aws/spot-advisor/spot-advisor-data.2025-06-28.json");

  private BenchSupport() {}

  /**
   * A service root in {@code root}: the real catalog, scenarios and guide-reference sheet, RunPod
   * and Vast pointed at {@code fake}, port 0, no last-good cache, the recorded ECB file for FX.
   *
   * @param http overrides merged into the {@code http:} section (e.g. wsStallLimit)
   */
  static void writeRoot(Path root, FakeVendorServer fake, JsonObject http) throws IOException {
    Files.createDirectories(root.resolve("config/scenarios"));
    Files.createDirectories(root.resolve("adapters"));
    Files.copy(Path.of("config/gpus.yaml"), root.resolve("config/gpus.yaml"));
    Files.copy(Path.of("config/regions.yaml"), root.resolve("config/regions.yaml"));
    Files.copy(Path.of("adapters/guide-reference.yaml"), root.resolve("adapters/guide-reference.yaml"));
    try (var files = Files.list(Path.of("config/scenarios"))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) Files.copy(f, root.resolve("config/scenarios").resolve(f.getFileName()));
    }
    JsonObject config = new JsonObject(map(YamlFiles.load(Path.of("config/gpurent.yaml"))));
    config.getJsonObject("http").put("port", 0).mergeIn(http);
    // no last-good files; the spot interruption feed (when this version reads one) from the recorded file, not the network
    config.getJsonObject("quotes").put("cacheDir", "").put("spotRisk", SPOT_ADVISOR.toAbsolutePath().toString());
    config.getJsonObject("fx").put("source", ECB.toAbsolutePath().toString());
    Files.writeString(root.resolve("config/gpurent.yaml"), config.encodePrettily());
    for (String v : new String[] {"runpod", "vast"}) {
      JsonObject def = new JsonObject(map(YamlFiles.load(Path.of("adapters", v + ".yaml"))));
      def.put("source", fake.url(v)).put("timeout", "2s");
      Files.writeString(root.resolve("adapters/" + v + ".yaml"), def.encodePrettily());
    }
  }

  /** Removes a temporary service root; what cannot be removed stays. */
  static void deleteTree(Path root) {
    try {
      Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
        @Override
        public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes a) throws IOException {
          Files.deleteIfExists(f);
          return java.nio.file.FileVisitResult.CONTINUE;
        }

        // a file that vanished under the walk (SQLite removes its -wal on close) is no reason to stop
        @Override
        public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException e) {
          return java.nio.file.FileVisitResult.CONTINUE;
        }

        @Override
        public java.nio.file.FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
          Files.deleteIfExists(d);
          return java.nio.file.FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      // left in the temp directory
    }
  }

  static JsonObject scenario(String file) {
    return new JsonObject(map(YamlFiles.load(Path.of("config/scenarios", file))));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  static <T> T await(Future<T> f, long seconds) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
  }

  static <T> T await(Future<T> f) throws Exception {
    return await(f, 30);
  }

  /** Every RunPod price ({@code ...Price": n}) times {@code factor}, exact. */
  static String scaleRunPod(String body, BigDecimal factor) {
    Matcher m = Pattern.compile("(Price\"\\s*:\\s*)([0-9.]+)").matcher(body);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      BigDecimal p = new BigDecimal(m.group(2)).multiply(factor).stripTrailingZeros();
      m.appendReplacement(sb, m.group(1) + p.toPlainString());
    }
    return m.appendTail(sb).toString();
  }

  /** The 1, 5 and 15 minute load averages, as /proc/loadavg says. */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2] + " (" + Runtime.getRuntime().availableProcessors() + " cores)";
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Heap in use after a full collection, in MiB. */
  static double heapAfterGcMiB() {
    for (int i = 0; i < 2; i++) {
      System.gc();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
  }

  /** Heap in use now (no collection), in MiB. */
  static double heapNowMiB() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
  }

  /** Direct (off-heap NIO) buffers in use, in MiB: where Netty keeps queued socket writes. */
  static double directMiB() {
    return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream().filter(b -> b.getName().equals("direct"))
        .mapToLong(BufferPoolMXBean::getMemoryUsed).sum() / 1048576.0;
  }

  /**
   * The kernel's view of the server's side of its connections (Linux /proc/net/tcp and tcp6): how
   * many sockets have local port {@code port}, how many of them hold unsent data, how many bytes in
   * all, and how many are closed by the server but still draining (FIN_WAIT1).
   */
  record TcpQueues(int sockets, int withUnsent, long unsentBytes, int finWait1) {
    @Override
    public String toString() {
      return fmt("%d sockets, %d with unsent data (%.1f MiB in all), %d in FIN_WAIT1", sockets, withUnsent, unsentBytes / 1048576.0, finWait1);
    }
  }

  static TcpQueues tcpQueues(int port) {
    String hexPort = fmt(":%04X", port);
    int sockets = 0, withUnsent = 0, finWait1 = 0;
    long unsent = 0;
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      try {
        for (String line : Files.readAllLines(Path.of(table))) {
          String[] f = line.trim().split("\\s+");
          if (f.length < 5 || !f[1].endsWith(hexPort)) continue;
          if (f[3].equals("0A")) continue;  // the listening socket
          sockets++;
          long tx = Long.parseLong(f[4].substring(0, f[4].indexOf(':')), 16);
          if (tx > 0) withUnsent++;
          unsent += tx;
          if (f[3].equals("04")) finWait1++;
        }
      } catch (IOException | RuntimeException e) {
        // not Linux, or no IPv6: what was read stands
      }
    }
    return new TcpQueues(sockets, withUnsent, unsent, finWait1);
  }

  /** A histogram of microseconds up to one minute, 3 significant digits. */
  static Histogram micros() {
    return new Histogram(TimeUnit.MINUTES.toMicros(1), 3);
  }

  /** Microseconds as milliseconds with 2 decimals. */
  static String ms(long micros) {
    return String.format(Locale.ROOT, "%.2f", micros / 1000.0);
  }

  static String ms(double micros) {
    return String.format(Locale.ROOT, "%.2f", micros / 1000.0);
  }

  static String fmt(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }

  /** "PASS" or "MISS", for a target line. */
  static String verdict(boolean ok) {
    return ok ? "PASS" : "MISS";
  }
}
