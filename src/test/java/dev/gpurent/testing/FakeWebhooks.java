package dev.gpurent.testing;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Local stand-ins for the webhook platforms, one path each ({@code /feishu}, {@code /dingtalk},
 * {@code /wecom}, {@code /slack}, {@code /json}): every POST is recorded, and answered as the
 * platform documents success unless answers were scripted for that path (used up in order).
 * They listen on 127.0.0.1, which webhooks may reach only when the operator allows it: a test
 * delivering to them says so in its configuration ({@link #ALLOWED}, {@link #allowIn}).
 */
public final class FakeWebhooks {

  /** One POST as received. */
  public record Received(String path, String query, String contentType, String body) {}

  /** A scripted answer. */
  public record Answer(int status, String body) {}

  /** Each platform's documented success answer (see alert.Channel for the pages). */
  static final Map<String, Answer> SUCCESS = Map.of(
      "/feishu", new Answer(200, "{\"code\":0,\"data\":{},\"msg\":\"success\"}"),
      "/dingtalk", new Answer(200, "{\"errcode\":0,\"errmsg\":\"ok\"}"),
      "/wecom", new Answer(200, "{\"errcode\":0,\"errmsg\":\"ok\"}"),
      "/slack", new Answer(200, "ok"),
      "/json", new Answer(204, ""));

  /** The operator's allow-list that lets webhooks reach these fakes. */
  public static final JsonArray ALLOWED = new JsonArray().add("127.0.0.1");

  /** Allows the fakes' host in the configuration of a service root ({@code alerts.allowHosts}). */
  public static void allowIn(Path root) throws IOException {
    ServiceFixtures.editConfig(root, c -> c.getJsonObject("alerts").put("allowHosts", ALLOWED.copy()));
  }

  private final Vertx vertx;
  private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
  private final Map<String, Deque<Answer>> scripted = new ConcurrentHashMap<>();
  private HttpServer server;

  public FakeWebhooks(Vertx vertx) {
    this.vertx = vertx;
  }

  public Future<FakeWebhooks> start() {
    return vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
      received.add(new Received(req.path(), req.query(), req.getHeader("Content-Type"), body.toString()));
      Deque<Answer> script = scripted.get(req.path());
      Answer a;
      synchronized (this) {
        a = script == null || script.isEmpty() ? SUCCESS.getOrDefault(req.path(), new Answer(404, "no such hook")) : script.poll();
      }
      req.response().setStatusCode(a.status()).end(a.body());
    })).listen(0, "127.0.0.1").map(s -> {
      server = s;
      return this;
    });
  }

  public String url(String path) {
    return "http://127.0.0.1:" + server.actualPort() + path;
  }

  /** The next answers of {@code path}, before its documented success resumes. */
  public synchronized void script(String path, Answer... answers) {
    scripted.computeIfAbsent(path, p -> new ArrayDeque<>()).addAll(java.util.List.of(answers));
  }

  /** The next POST received, waiting up to 30 s; null if none came. */
  public Received next() throws InterruptedException {
    return received.poll(30, TimeUnit.SECONDS);
  }

  /** The next POST received, waiting up to {@code seconds}; null if none came. */
  public Received next(int seconds) throws InterruptedException {
    return received.poll(seconds, TimeUnit.SECONDS);
  }

  /** How many POSTs were received and not taken yet. */
  int waiting() {
    return received.size();
  }

  /** A POST received within a short while, or null: used to show that nothing more came. */
  public Received more() throws InterruptedException {
    return received.poll(300, TimeUnit.MILLISECONDS);
  }
}
