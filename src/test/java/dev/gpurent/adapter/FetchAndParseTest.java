package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The one fetch-then-parse of every single-payload kind, on a loopback server and a file. */
@ExtendWith(VertxExtension.class)
class FetchAndParseTest {

  static Future<String> url(Vertx vertx, Function<io.vertx.core.http.HttpServerRequest, Buffer> answer) {
    return vertx.createHttpServer()
        .requestHandler(req -> req.body().onSuccess(b -> req.response().end(answer.apply(req))))
        .listen(0, "127.0.0.1")
        .map((HttpServer s) -> "http://127.0.0.1:" + s.actualPort() + "/prices");
  }

  static PayloadSource source(Vertx vertx, String where) {
    return PayloadSource.of(vertx, where, Duration.ofSeconds(30), null);
  }

  @Test
  void parses_a_get_on_a_worker_thread_citing_the_url(Vertx vertx, VertxTestContext ctx) {
    url(vertx, req -> Buffer.buffer(req.method() + " payload"))
        .compose(u -> FetchAndParse.fetch(vertx, source(vertx, u), null,
            p -> Context.isOnWorkerThread() + " " + p.origin().startsWith(u) + " " + p.text()))
        .onComplete(ctx.succeeding(r -> ctx.verify(() -> {
          assertEquals("true true GET payload", r);
          ctx.completeNow();
        })));
  }

  @Test
  void posts_the_body_when_there_is_one(Vertx vertx, VertxTestContext ctx) {
    url(vertx, req -> Buffer.buffer(req.method() + " " + req.getHeader("Content-Type")))
        .compose(u -> FetchAndParse.fetch(vertx, source(vertx, u), Buffer.buffer("{\"query\": 1}"), Payload::text))
        .onComplete(ctx.succeeding(r -> ctx.verify(() -> {
          assertEquals("POST application/json", r);
          ctx.completeNow();
        })));
  }

  @Test
  void reads_a_file_where_it_is_and_never_deletes_it(Vertx vertx, VertxTestContext ctx, @TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("saved.json"), "saved");
    FetchAndParse.fetch(vertx, source(vertx, file.toString()), Buffer.buffer("ignored"), Payload::text)
        .onComplete(ctx.succeeding(r -> ctx.verify(() -> {
          assertEquals("saved", r, "a file source is read as it is, the POST body ignored");
          assertTrue(Files.exists(file));
          ctx.completeNow();
        })));
  }

  @Test
  void fails_with_the_parse_failure(Vertx vertx, VertxTestContext ctx) {
    url(vertx, req -> Buffer.buffer("<html>"))
        .compose(u -> FetchAndParse.fetch(vertx, source(vertx, u), null, p -> {
          throw new IllegalArgumentException("not a price list: " + p.text());
        }))
        .onComplete(ctx.failing(e -> ctx.verify(() -> {
          assertEquals("not a price list: <html>", e.getMessage());
          assertFalse(Context.isOnWorkerThread(), "the future completes back on the event loop");
          ctx.completeNow();
        })));
  }
}
