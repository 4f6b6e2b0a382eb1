package dev.gpurent.service.quotes;

import dev.gpurent.service.Addresses;
import dev.gpurent.service.Failures;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quotesheet.BadSheetException;
import dev.gpurent.quotesheet.QuoteSheetImport;
import dev.gpurent.quotesheet.QuoteSheetReader;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Imports uploaded quote sheets ({@link Addresses#QUOTE_SHEETS_IMPORT}): checks and writes them on
 * a worker thread (POI and the file system block), one import at a time so that two uploads of
 * one vendor cannot interleave, then asks for the vendors to be reloaded. An import done here is
 * passed on to the other nodes of a cluster ({@link Addresses#ADMIN_DONE}), which import it too.
 */
public final class QuoteSheetVerticle extends VerticleBase {

  private final Path adaptersDir;
  private final GpuCatalog catalog;
  private final Clock clock;

  public QuoteSheetVerticle(Path adaptersDir, GpuCatalog catalog, Clock clock) {
    this.adaptersDir = adaptersDir;
    this.catalog = catalog;
    this.clock = clock;
  }

  @Override
  public Future<?> start() {
    return vertx.eventBus().<JsonObject>localConsumer(Addresses.QUOTE_SHEETS_IMPORT, this::importSheet).completion();
  }

  private void importSheet(Message<JsonObject> msg) {
    JsonObject body = msg.body() == null ? new JsonObject() : msg.body();
    List<QuoteSheetReader.Upload> files = new ArrayList<>();
    for (Object o : body.getJsonArray("files", new JsonArray())) {
      JsonObject f = (JsonObject) o;
      files.add(new QuoteSheetReader.Upload(f.getString("name", "sheet.xlsx"), f.getBinary("bytes", new byte[0])));
    }
    String vendor = body.getString("vendor");
    vertx.executeBlocking(() -> QuoteSheetImport.run(adaptersDir, vendor, files, catalog, clock), true)
        .compose(r -> vertx.eventBus().<JsonObject>request(Addresses.ADMIN_RELOAD, null)
            .map(m -> new JsonObject().put("vendor", r.vendor()).put("offers", r.offers()).put("quotes", r.quotes())
                // neutral messages: the HTTP edge says them in the client's language
                .put("warnings", new JsonArray(r.warnings().stream().map(dev.gpurent.text.Localizer::neutral).toList()))
                .put("files", new JsonArray().add(r.yaml().getFileName().toString())
                    .addAll(new JsonArray(r.sheets().stream().map(p -> p.getFileName().toString()).toList())))
                .put("vendors", m.body() == null ? null : m.body().getValue("vendors"))))
        .onSuccess(reply -> {
          msg.reply(reply);
          // the other nodes of a cluster import the same sheet (one passed on from another node is not passed on again)
          if (msg.headers().get(Addresses.SHARED_HEADER) == null) {
            vertx.eventBus().send(Addresses.ADMIN_DONE, new JsonObject().put("action", "import").put("vendor", vendor)
                .put("files", body.getJsonArray("files", new JsonArray())));
          }
        })
        .onFailure(e -> {
          if (e instanceof BadSheetException bad) {
            // the house's error shape, each bad cell a field: "sheet offers, row 3, column A (GPU model)"
            msg.fail(400, Failures.body(dev.gpurent.text.Message.of("sheet.invalid"), bad.problems().stream()
                .map(p -> new dev.gpurent.cost.InvalidInputException.Problem(p.where(), p.message())).toList()).encode());
          } else {
            Failures.fail(msg, 500, "quote sheet import failed: " + e.getMessage());
          }
        });
  }
}
