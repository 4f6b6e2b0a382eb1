package dev.gpurent.store;

import dev.gpurent.quote.QuoteJson;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * Each vendor's last good quotes as one JSON file ({@code <dir>/<vendor>.json}), so that a restart
 * or an offline run still answers, flagged stale. Written to a temporary file and moved into place,
 * so a crash leaves the previous file whole.
 */
public final class LastGoodCache {

  private final Vertx vertx;
  private final String dir;

  public LastGoodCache(Vertx vertx, String dir) {
    this.vertx = vertx;
    this.dir = dir;
  }

  public Future<Void> save(VendorQuotes quotes) {
    String file = dir + "/" + quotes.vendor() + ".json";
    String tmp = file + ".tmp";
    Buffer body = QuoteJson.toJson(quotes).toBuffer();
    return vertx.fileSystem().mkdirs(dir)
        .compose(v -> vertx.fileSystem().writeFile(tmp, body))
        .compose(v -> vertx.fileSystem().move(tmp, file, new io.vertx.core.file.CopyOptions().setReplaceExisting(true)
            .setAtomicMove(true)));
  }

  /** The vendor's last good quotes, or empty when none were saved (or the file is unreadable). */
  public Future<Optional<VendorQuotes>> load(String vendor) {
    String file = dir + "/" + vendor + ".json";
    return vertx.fileSystem().exists(file).compose(exists -> !exists ? Future.succeededFuture(Optional.empty())
        : vertx.fileSystem().readFile(file)
            .compose(buf -> vertx.executeBlocking(() -> Optional.of(QuoteJson.vendorQuotes(new JsonObject(buf)))))
            .recover(e -> Future.succeededFuture(Optional.empty())));
  }
}
