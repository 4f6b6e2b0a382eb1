package dev.gpurent.testing;

import dev.gpurent.cluster.Owners;
import dev.gpurent.service.boot.Bootstrap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The whole service as {@code serve} starts it, on port 0 of loopback, against fake vendors serving
 * RunPod's and Vast's recorded payloads: the start-up every service test shares, written once.
 *
 * <p>{@link #prepare} starts the test's own Vert.x (for the fake vendors and the test's clients, apart
 * from the service's), the fake vendors, and writes the root; the settings a test varies
 * ({@link #config}, {@link #env}, {@link #owning}) are applied before {@link #start}, which returns
 * the running service once its first refresh of every vendor is done. {@link #stop} then
 * {@link #start} again is a restart on the same root; {@link #close} ends it all.
 */
public final class RunningService {

  /** Writes a root for the service, its vendors read from {@code fake} (or not). */
  @FunctionalInterface
  public interface RootWriter {
    void write(Path root, FakeVendorServer fake) throws Exception;
  }

  private final Path root;
  private final Vertx vertx;
  private final FakeVendorServer fake;
  private final WebClient client;
  private Map<String, String> env = Map.of("GPURENT_ADMIN_TOKEN", ServiceFixtures.TOKEN);
  private Owners owners;
  private boolean refresh = true;
  private Bootstrap.Running service;

  private RunningService(Path root, Vertx vertx, FakeVendorServer fake) {
    this.root = root;
    this.vertx = vertx;
    this.fake = fake;
    this.client = WebClient.create(vertx);
  }

  /** The shipped configuration in {@code root}, RunPod and Vast read from the started fake vendors. */
  public static RunningService prepare(Path root) throws Exception {
    return prepare(root, ServiceFixtures::writeRoot);
  }

  /** A root of the test's own making; the fake vendors are started all the same. */
  public static RunningService prepare(Path root, RootWriter writer) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      FakeVendorServer fake = ServiceFixtures.recordedVendors(vertx);
      ServiceFixtures.await(fake.start());
      writer.write(root, fake);
      return new RunningService(root, vertx, fake);
    } catch (Exception e) {
      vertx.close();
      throw e;
    }
  }

  /** Edits the root's config/gpurent.yaml (the test's own limits), for the next {@link #start}. */
  public RunningService config(Consumer<JsonObject> edit) throws java.io.IOException {
    ServiceFixtures.editConfig(root, edit);
    return this;
  }

  /** The service's environment instead of the admin token alone; without the token nothing is refreshed at start. */
  public RunningService env(Map<String, String> env) {
    this.env = env;
    return this;
  }

  /** One member of a cluster's share of the scenarios, on a single node ({@link Bootstrap#owning}). */
  public RunningService owning(Owners owners) {
    this.owners = owners;
    return this;
  }

  /** Whether {@link #start} waits for the first refresh of every vendor (needs the admin token); it does by default. */
  public RunningService refreshed(boolean refresh) {
    this.refresh = refresh;
    return this;
  }

  /** Starts the service; returns once it serves and, unless told otherwise, has fetched every vendor. */
  public Bootstrap.Running start() throws Exception {
    if (service != null) throw new IllegalStateException("already running: stop() it first");
    Bootstrap boot = new Bootstrap(root, new HashMap<>(env), Clock.systemUTC());
    if (owners != null) boot.owning(owners);
    service = ServiceFixtures.await(boot.start());
    if (refresh && token() != null) ServiceFixtures.refreshAll(client, service);
    return service;
  }

  /** Stops the service, keeping the root, the fake vendors and the test's Vert.x for a restart. */
  public void stop() throws Exception {
    if (service == null) return;
    Bootstrap.Running running = service;
    service = null;
    ServiceFixtures.await(running.close());
  }

  /** Stops the service if it runs, then the test's Vert.x and the fake vendors on it. */
  public void close() throws Exception {
    try {
      stop();
    } finally {
      ServiceFixtures.await(vertx.close());
    }
  }

  /** The test's own Vert.x (not the service's: that is {@code service().vertx()}). */
  public Vertx vertx() {
    return vertx;
  }

  public FakeVendorServer fake() {
    return fake;
  }

  /** A client on the test's Vert.x. */
  public WebClient client() {
    return client;
  }

  public Path root() {
    return root;
  }

  /** The running service, or null between {@link #stop} and {@link #start}. */
  public Bootstrap.Running service() {
    return service;
  }

  public int port() {
    return service.port();
  }

  /** The admin token the service was given, or null. */
  public String token() {
    return env.get("GPURENT_ADMIN_TOKEN");
  }
}
