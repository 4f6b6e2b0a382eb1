package dev.gpurent.service.alerts;

import dev.gpurent.service.AlertSettings;

import dev.gpurent.alert.AddressClassifier;
import dev.gpurent.alert.Channel;
import dev.gpurent.alert.WebhookHosts;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * Makes one try of one webhook: resolves its host, checks every address ({@link WebhookHosts}),
 * connects to a checked one (keeping the name for the Host header, SNI and the certificate
 * check, so a name that resolves elsewhere a moment later reaches nothing new), POSTs the JSON
 * body and lets the platform judge its answer.
 *
 * <p>Each host (scheme, name and port) has {@code alerts.connectionsPerHost} slots of its own: a
 * try waits for one of its host's at most {@code alerts.connectTimeout} (then it is held back and
 * tried again later), so a host that never answers holds its own slots, never another host's. The
 * whole try is bounded by {@code alerts.timeout}, the answer by {@code alerts.maxResponseBytes}.
 * A failure's reason is its class only: the host refused (or not found: the two are one class, so
 * that internal names cannot be probed), connect failed, timed out, connection closed, TLS
 * failed, answer too long; never the target's text, never the URL (which holds the webhook's token).
 */
public final class WebhookSender {

  public static final String REFUSED = "refused: the host has no public address";
  static final String BUSY = "held back: its host is busy with other tries";
  /** Tries waiting for a connection to one host; more are held back at once (and tried again later). */
  static final int MAX_WAITING = 64;

  private final Vertx vertx;
  private final HttpClient client;
  private final AlertSettings settings;
  private final WebhookHosts hosts;
  private final HostResolver resolver;
  /** Each host's (scheme, name, port) connections in use and tries waiting; the AlertVerticle's event loop only. */
  private final Map<String, Slots> perHost = new HashMap<>();

  WebhookSender(Vertx vertx, AlertSettings settings, WebhookHosts hosts, HostResolver resolver) {
    // No redirects: a webhook answers where it is, and a redirect could lead anywhere. The client
    // never queues a try: the slots of each host are counted here, and its pools are larger.
    this.vertx = vertx;
    this.client = vertx.createHttpClient(new HttpClientOptions().setMaxRedirects(0)
            .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, settings.connectTimeout().toMillis())),
        new PoolOptions().setHttp1MaxSize(2 * settings.connectionsPerHost()));
    this.settings = settings;
    this.hosts = hosts;
    this.resolver = resolver;
  }

  /** One try, once its host has a free slot (waiting at most {@code alerts.connectTimeout} for one). */
  Future<Channel.Verdict> post(Channel channel, String url, String json) {
    URI u = URI.create(url);
    String host = u.getHost();
    boolean tls = u.getScheme().equalsIgnoreCase("https");
    int port = u.getPort() > 0 ? u.getPort() : tls ? 443 : 80;
    String key = (tls ? "https://" : "http://") + WebhookHosts.normal(host) + ":" + port;
    Slots slots = perHost.computeIfAbsent(key, k -> new Slots());
    return slots.take(settings.connectionsPerHost(), settings.connectTimeout().toMillis())
        .compose(x -> post(channel, host, port, tls, u, json).andThen(v -> {
          if (slots.release()) perHost.remove(key);
        }), busy -> Future.succeededFuture(new Channel.Verdict(Channel.Outcome.RETRY, BUSY)));
  }

  private Future<Channel.Verdict> post(Channel channel, String host, int port, boolean tls, URI u, String json) {
    String path = (u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath())
        + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
    Try attempt = new Try();
    return addresses(host)
        .recover(e -> Future.failedFuture(new Refused()))
        .compose(all -> {
          if (hosts.refused(host, all)) return Future.failedFuture(new Refused());
          RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
              .setServer(SocketAddress.inetSocketAddress(port, all.get(0).getHostAddress()))
              .setHost(host).setPort(port).setSsl(tls).setURI(path).setFollowRedirects(false)
              .setConnectTimeout(settings.connectTimeout().toMillis()).setIdleTimeout(settings.timeout().toMillis())
              .putHeader("Content-Type", "application/json; charset=utf-8").putHeader("User-Agent", "gpurent-alerts");
          return client.request(options).recover(e -> Future.failedFuture(new ConnectFailed(e)));
        })
        .compose(req -> {
          if (attempt.over) {
            req.reset();  // the try timed out while this connection was being made
            return Future.failedFuture(new ConnectFailed(null));
          }
          attempt.request = req;
          return req.send(Buffer.buffer(json))
              .compose(resp -> capped(req, resp).map(body -> channel.verdict(resp.statusCode(), body.toString(StandardCharsets.UTF_8))));
        })
        .timeout(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)
        .otherwise(e -> {
          attempt.over = true;
          if (attempt.request != null) attempt.request.reset();
          return verdict(e);
        });
  }

  void close() {
    client.close();
  }

  /** The host's addresses: a literal's own, without any lookup; a name's from the resolver. */
  private Future<List<InetAddress>> addresses(String host) {
    try {
      Optional<InetAddress> literal = AddressClassifier.literal(host);
      if (literal.isPresent()) return Future.succeededFuture(List.of(literal.get()));
    } catch (IllegalArgumentException notAnAddress) {
      return Future.failedFuture(notAnAddress);
    }
    return resolver.resolve(host);
  }

  /** The answer's body, up to the cap; past it the try fails. */
  private Future<Buffer> capped(HttpClientRequest req, HttpClientResponse resp) {
    // an answer without a body may be over before this runs, and then cannot be read again
    if (resp.statusCode() == 204 || resp.statusCode() == 205 || resp.statusCode() == 304) return Future.succeededFuture(Buffer.buffer());
    Promise<Buffer> whole = Promise.promise();
    Buffer body = Buffer.buffer();
    int max = settings.maxResponseBytes();
    String declared = resp.getHeader("Content-Length");
    if (declared != null && (!declared.matches("\\d{1,9}") || Integer.parseInt(declared) > max)) {
      req.reset();
      return Future.failedFuture(new TooLong());
    }
    try {
      resp.handler(chunk -> {
        if (body.length() + chunk.length() > max) {
          whole.tryFail(new TooLong());
          req.reset();
        } else {
          body.appendBuffer(chunk);
        }
      });
    } catch (IllegalStateException over) {
      return Future.succeededFuture(body);  // ended before this ran: judged on its status (not tried again)
    }
    resp.end().onComplete(v -> whole.tryComplete(body), whole::tryFail);
    return whole.future();
  }

  private Channel.Verdict verdict(Throwable e) {
    if (e instanceof TooLong) return new Channel.Verdict(Channel.Outcome.FAILED, "answer over " + settings.maxResponseBytes() + " bytes");
    if (e instanceof Refused) return new Channel.Verdict(Channel.Outcome.RETRY, REFUSED);
    if (causedBy(e, SSLException.class)) return new Channel.Verdict(Channel.Outcome.FAILED, "TLS failed");
    if (e instanceof ConnectFailed) return new Channel.Verdict(Channel.Outcome.RETRY, "connect failed");
    if (causedBy(e, java.util.concurrent.TimeoutException.class) || String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("timeout")) {
      return new Channel.Verdict(Channel.Outcome.RETRY, "timed out");
    }
    return new Channel.Verdict(Channel.Outcome.RETRY, "connection closed before the answer");
  }

  private static boolean causedBy(Throwable e, Class<? extends Throwable> kind) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (kind.isInstance(t)) return true;
    }
    return false;
  }

  /** One host's slots: how many are in use, and the tries waiting for one, first come first served. */
  private final class Slots {
    int used;
    final Deque<Promise<Void>> waiting = new ArrayDeque<>();

    Future<Void> take(int max, long waitMs) {
      if (used < max) {
        used++;
        return Future.succeededFuture();
      }
      if (waiting.size() >= MAX_WAITING) return Future.failedFuture(new IllegalStateException("busy"));
      Promise<Void> p = Promise.promise();
      waiting.add(p);
      long timer = vertx.setTimer(waitMs, t -> {
        if (waiting.remove(p)) p.fail(new IllegalStateException("busy"));
      });
      return p.future().andThen(x -> vertx.cancelTimer(timer));
    }

    /** Hands the slot to the next waiting try, or frees it; true when the host has nothing left. */
    boolean release() {
      Promise<Void> next = waiting.poll();
      if (next != null) {
        next.complete();
        return false;
      }
      used--;
      return used == 0;
    }
  }

  /** One try's state: the request once there is one, and whether the try is over (a timeout resets the request). */
  private static final class Try {
    HttpClientRequest request;
    boolean over;
  }

  private static final class Refused extends RuntimeException {
    Refused() {
      super(null, null, false, false);
    }
  }

  private static final class ConnectFailed extends RuntimeException {
    ConnectFailed(Throwable cause) {
      super(null, cause, false, false);
    }
  }

  private static final class TooLong extends RuntimeException {
    TooLong() {
      super(null, null, false, false);
    }
  }
}
