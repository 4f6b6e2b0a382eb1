package dev.gpurent.service;

import dev.gpurent.alert.Channel;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.codec.BodyCodec;
import io.vertx.ext.web.codec.spi.BodyStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Makes one try of one webhook: POSTs the JSON body and lets the platform judge its answer. A try
 * is bounded in time ({@code alerts.timeout}) and its answer in size ({@code alerts.maxResponseBytes});
 * a connection failure or timeout is worth another try, an oversized answer is not. The URL is
 * never part of a reason (it holds the webhook's token).
 */
final class WebhookSender {

  private final WebClient client;
  private final AlertSettings settings;

  WebhookSender(Vertx vertx, AlertSettings settings) {
    // no redirects: a webhook answers where it is, and a redirect could lead anywhere
    this.client = WebClient.create(vertx, new WebClientOptions().setFollowRedirects(false).setUserAgent("gpurent-alerts")
        .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, settings.timeout().toMillis())));
    this.settings = settings;
  }

  Future<Channel.Verdict> post(Channel channel, String url, String json) {
    long ms = settings.timeout().toMillis();
    Capped body = new Capped(settings.maxResponseBytes());
    return client.postAbs(url).timeout(ms).putHeader("Content-Type", "application/json; charset=utf-8")
        .as(codec(body)).sendBuffer(Buffer.buffer(json))
        .timeout(ms, TimeUnit.MILLISECONDS)
        .map(r -> channel.verdict(r.statusCode(), r.body().toString(StandardCharsets.UTF_8)))
        .otherwise(e -> body.over ? new Channel.Verdict(Channel.Outcome.FAILED, "answer over " + settings.maxResponseBytes() + " bytes")
            : new Channel.Verdict(Channel.Outcome.RETRY, "no answer: " + reason(e)));
  }

  void close() {
    client.close();
  }

  private static String reason(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return m.length() <= 200 ? m : m.substring(0, 200) + "...";
  }

  private static BodyCodec<Buffer> codec(Capped body) {
    return () -> body;
  }

  /** An answer's body, kept up to a cap; past it the answer fails. */
  private static final class Capped implements BodyStream<Buffer> {
    private final int max;
    private final Buffer buffer = Buffer.buffer();
    private final Promise<Buffer> result = Promise.promise();
    boolean over;

    Capped(int max) {
      this.max = max;
    }

    @Override
    public Future<Buffer> result() {
      return result.future();
    }

    @Override
    public void handle(Throwable e) {
      result.tryFail(e);
    }

    @Override
    public Future<Void> write(Buffer data) {
      if (buffer.length() + data.length() > max) {
        over = true;
        IllegalStateException e = new IllegalStateException("answer over " + max + " bytes");
        result.tryFail(e);
        return Future.failedFuture(e);
      }
      buffer.appendBuffer(data);
      return Future.succeededFuture();
    }

    @Override
    public Future<Void> end() {
      result.tryComplete(buffer);
      return Future.succeededFuture();
    }

    @Override
    public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
      return this;
    }

    @Override
    public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
      return this;
    }

    @Override
    public boolean writeQueueFull() {
      return false;
    }

    @Override
    public WriteStream<Buffer> drainHandler(Handler<Void> handler) {
      return this;
    }
  }
}
