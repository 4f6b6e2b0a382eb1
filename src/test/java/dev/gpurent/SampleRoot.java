package dev.gpurent;

import dev.gpurent.adapter.AdapterRegistry;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.adapter.VendorDirectory;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The root {@code bench/sample-root.sh} builds: every shipped vendor pointed at its recorded
 * payload in {@code ../shared/data}. Built by running the script itself, so that its vendor ->
 * file map is the one the tests read and stays the only copy of it.
 */
public final class SampleRoot {

  public static final Path DIR = Path.of("target/test-sample-root");
  private static boolean built;

  private SampleRoot() {}

  /** Builds the root once per test JVM. */
  public static synchronized Path build() {
    if (built) return DIR;
    try {
      Process p = new ProcessBuilder("bash", "bench/sample-root.sh", DIR.toString()).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
        throw new IllegalStateException("bench/sample-root.sh failed: " + out);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    built = true;
    return DIR;
  }

  /** Every vendor of the root, enabled or not (a disabled one still has a recording to read). */
  public static List<VendorDefinition> vendors() {
    return VendorDirectory.loadAll(build().resolve("adapters"), AdapterRegistry.load());
  }

  /** Each vendor's payload as its own adapter reads it, before the pipeline stamps anything. */
  public static Map<String, VendorQuotes> fetchAll(Vertx vertx) throws Exception {
    AdapterRegistry registry = AdapterRegistry.load();
    Map<String, VendorQuotes> out = new LinkedHashMap<>();
    for (VendorDefinition d : vendors()) {
      VendorQuotes q = registry.factory(d.kind()).create(vertx, d, Fixtures.CATALOG).fetch()
          .toCompletionStage().toCompletableFuture().get(2, TimeUnit.MINUTES);
      out.put(d.vendor(), q);
    }
    return out;
  }
}
