package dev.gpurent.service.quotes;

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
record LastGoodCache(Vertx vertx, String dir) {

  Future<Void> save(VendorQuotes quotes) {
    String file = dir + "/" + quotes.vendor() + ".json";
    String tmp = file + ".tmp";
    Buffer body = QuoteJson.toJson(quotes).toBuffer();
    return vertx.fileSystem().mkdirs(dir)
        .compose(v -> vertx.fileSystem().writeFile(tmp, body))
        .compose(v -> vertx.fileSystem().move(tmp, file, new io.vertx.core.file.CopyOptions().setReplaceExisting(true)
            .setAtomicMove(true)));
  }

  /**
   * The vendor's last good quotes, or empty when none were saved. A file that cannot be read as
   * quotes is moved aside as {@code <vendor>.json.corrupt} (so that it is neither read again nor
   * overwritten before someone looks at it) and the load fails with {@link Corrupt}, saying so.
   */
  Future<Optional<VendorQuotes>> load(String vendor) {
    String file = dir + "/" + vendor + ".json";
    return vertx.fileSystem().exists(file).compose(exists -> !exists ? Future.succeededFuture(Optional.empty())
        : vertx.fileSystem().readFile(file)
            .compose(buf -> vertx.executeBlocking(() -> Optional.of(QuoteJson.vendorQuotes(new JsonObject(buf)))))
            .recover(e -> moveAside(vendor, file, e)));
  }

  private Future<Optional<VendorQuotes>> moveAside(String vendor, String file, Throwable e) {
    String aside = file + ".corrupt";
    String why = e instanceof io.vertx.core.json.DecodeException ? "not valid JSON"
        : dev.gpurent.config.UserText.withoutPaths(String.valueOf(e.getMessage()));
    return vertx.fileSystem().move(file, aside, new io.vertx.core.file.CopyOptions().setReplaceExisting(true))
        .transform(moved -> Future.failedFuture(new Corrupt("its last good quotes file " + vendor + ".json could not be read ("
            + why + ")" + (moved.succeeded() ? "; moved aside as " + vendor + ".json.corrupt" : "; it could not be moved aside"))));
  }

  /** A last good file that was unreadable; the message says what was done with it. */
  static final class Corrupt extends RuntimeException {
    Corrupt(String message) {
      super(message, null, false, false);
    }
  }
}
