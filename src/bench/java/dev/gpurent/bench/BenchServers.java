package dev.gpurent.bench;

import static dev.gpurent.bench.BenchSupport.await;

import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.FakeVendorServer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The servers HttpLoad loads: gpurent started by Bootstrap on fake vendors (guide-reference and
 * the recorded RunPod and Vast payloads) and the baseline, a Vert.x JSON hello-world. Run as its
 * own JVM ({@link #main}, what HttpLoad does by default) so that the load generator's garbage
 * collections and JIT do not pause the servers it measures; or in the driver's JVM
 * ({@link #start}).
 */
final class BenchServers implements AutoCloseable {

  /** The baseline: one route answering a small JSON object, on one event loop like gpurent's HttpVerticle. */
  static final class Hello extends VerticleBase {
    int port;

    @Override
    public Future<?> start() {
      Router router = Router.router(vertx);
      Buffer body = Buffer.buffer("{\"message\":\"hello, world\"}");
      router.get("/hello").handler(rc -> rc.response().putHeader("content-type", "application/json; charset=utf-8").end(body.copy()));
      return vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").onSuccess(s -> port = s.actualPort());
    }
  }

  final int gpurentPort;
  final int helloPort;
  /** The servers' JVM when forked, for its CPU time; empty when they share the driver's. */
  java.util.Optional<ProcessHandle> process = java.util.Optional.empty();
  private final List<AutoCloseable> closers = new ArrayList<>();

  private BenchServers(int gpurentPort, int helloPort) {
    this.gpurentPort = gpurentPort;
    this.helloPort = helloPort;
  }

  /** Starts both servers in this JVM. */
  static BenchServers start() throws Exception {
    Vertx vendors = Vertx.vertx();
    FakeVendorServer fake = new FakeVendorServer(vendors).serve("runpod", BenchSupport.RUNPOD).serve("vast", BenchSupport.VAST);
    await(fake.start());
    Path root = Files.createTempDirectory("gpurent-bench-http");
    BenchSupport.writeRoot(root, fake, new JsonObject());
    Bootstrap.Running service = await(new Bootstrap(root, Map.of("GPURENT_ADMIN_TOKEN", BenchSupport.TOKEN), Clock.systemUTC()).start());
    Vertx baseVertx = Vertx.vertx();
    Hello hello = new Hello();
    await(baseVertx.deployVerticle(hello));
    BenchServers s = new BenchServers(service.port(), hello.port);
    s.closers.add(baseVertx::close);
    s.closers.add(service::close);
    s.closers.add(vendors::close);
    s.closers.add(() -> BenchSupport.deleteTree(root));
    return s;
  }

  /**
   * Starts both servers in a child JVM on this classpath, with {@code jvmOptions}; it prints their
   * ports once they listen and stops when its standard input closes.
   */
  static BenchServers fork(List<String> jvmOptions) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchServers.class.getName()));
    Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null && !line.startsWith("ready ")) System.out.println("  [servers] " + line);
    if (line == null) throw new IllegalStateException("the servers' JVM ended before it was ready: exit " + waitFor(child));
    String[] ports = line.split(" ");
    BenchServers s = new BenchServers(Integer.parseInt(ports[1]), Integer.parseInt(ports[2]));
    s.process = java.util.Optional.of(child.toHandle());
    s.closers.add(() -> {
      child.getOutputStream().close();
      if (!child.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)) child.destroyForcibly();
    });
    return s;
  }

  private static int waitFor(Process p) {
    try {
      return p.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable c : closers) c.close();
  }

  /** The child JVM of {@link #fork}: starts the servers, prints "ready PORT HELLO_PORT", runs until stdin closes. */
  public static void main(String[] args) throws Exception {
    try (BenchServers s = start()) {
      System.out.println("ready " + s.gpurentPort + " " + s.helloPort);
      System.out.flush();
      while (System.in.read() != -1) {
        // nothing is sent: end of input is the signal to stop
      }
    }
    System.exit(0);
  }
}
