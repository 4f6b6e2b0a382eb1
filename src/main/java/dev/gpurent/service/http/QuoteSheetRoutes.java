package dev.gpurent.service.http;

import dev.gpurent.service.Addresses;

import dev.gpurent.quotesheet.QuoteSheetReader;
import dev.gpurent.quotesheet.QuoteSheetTemplate;
import dev.gpurent.quotesheet.SheetLayout;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The quote-sheet routes: {@code GET /api/quote-sheets/template?lang=zh|en} (the blank workbook)
 * and {@code POST /api/admin/quote-sheets} (admin token; multipart/form-data with a {@code vendor}
 * field, the workbook as {@code sheet}, or the offers CSV as {@code sheet} and the terms CSV as
 * {@code terms}). Uploads have a body limit of their own, {@link QuoteSheetReader#MAX_BYTES} plus
 * room for the form, checked after the token so that no one without it can make the server read
 * megabytes; they are spooled to a temporary folder and deleted when the request ends.
 */
final class QuoteSheetRoutes {

  private static final String XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

  private QuoteSheetRoutes() {}

  /** Mounts the routes; call before the router's general body handler. {@code admin} checks the token. */
  static void mount(Vertx vertx, Router router, Handler<RoutingContext> admin) {
    router.get("/api/quote-sheets/template").handler(QuoteSheetRoutes::template);
    String uploads = System.getProperty("java.io.tmpdir") + "/gpurent-uploads";
    // two routes: Vert.x Web runs a body handler first on its route, and the token must be checked first
    router.post("/api/admin/quote-sheets").handler(admin);
    router.post("/api/admin/quote-sheets")
        .handler(BodyHandler.create(uploads).setBodyLimit(QuoteSheetReader.MAX_BYTES + 64 * 1024)
            .setDeleteUploadedFilesOnEnd(true).setHandleFileUploads(true))
        .handler(rc -> upload(vertx, rc))
        .failureHandler(rc -> {
          if (rc.statusCode() == 413) {
            HttpErrors.send(rc.response(), 413, HttpErrors.inLanguage(dev.gpurent.service.Failures.body(
                Message.of("sheet.upload.tooLarge", "max", QuoteSheetReader.MAX_BYTES / (1024 * 1024)), null), rc));
          } else {
            rc.next();
          }
        });
  }

  private static void template(RoutingContext rc) {
    dev.gpurent.text.Lang lang;
    try {
      lang = SheetLayout.lang(rc.queryParams().get("lang") == null ? "en" : rc.queryParams().get("lang"));
    } catch (IllegalArgumentException e) {
      HttpErrors.invalid(rc, List.of(new dev.gpurent.cost.InvalidInputException.Problem("lang", e.getMessage())));
      return;
    }
    byte[] xlsx = QuoteSheetTemplate.xlsx(lang, LocalDate.now(ZoneOffset.UTC));
    rc.response().putHeader(HttpHeaders.CONTENT_TYPE, XLSX)
        .putHeader("Content-Disposition", "attachment; filename=\"gpurent-quote-sheet-" + lang.name().toLowerCase() + ".xlsx\"")
        .end(io.vertx.core.buffer.Buffer.buffer(xlsx));
  }

  private static void upload(Vertx vertx, RoutingContext rc) {
    Lang lang = ApiSupport.lang(rc);  // the answer's (warnings, problems); an unknown one is a 400 before anything is read
    if (lang == null) return;
    String vendor = rc.request().getFormAttribute("vendor");
    List<FileUpload> sheet = rc.fileUploads().stream().filter(f -> f.name().equals("sheet")).toList();
    List<FileUpload> terms = rc.fileUploads().stream().filter(f -> f.name().equals("terms")).toList();
    List<dev.gpurent.cost.InvalidInputException.Problem> missing = new ArrayList<>();
    if (vendor == null || vendor.isBlank()) missing.add(new dev.gpurent.cost.InvalidInputException.Problem("vendor", Message.of("sheet.upload.required")));
    if (sheet.size() != 1) missing.add(new dev.gpurent.cost.InvalidInputException.Problem("sheet", Message.of("sheet.upload.sheet")));
    if (terms.size() > 1) missing.add(new dev.gpurent.cost.InvalidInputException.Problem("terms", Message.of("sheet.upload.terms")));
    if (!missing.isEmpty()) {
      HttpErrors.invalid(rc, missing);
      return;
    }
    List<FileUpload> files = new ArrayList<>(sheet);
    files.addAll(terms);
    JsonArray payload = new JsonArray();
    io.vertx.core.Future<Void> read = io.vertx.core.Future.succeededFuture();
    for (FileUpload f : files) {
      read = read.compose(v -> vertx.fileSystem().readFile(f.uploadedFileName()).map(buf -> {
        payload.add(new JsonObject().put("name", f.fileName()).put("bytes", buf.getBytes()));
        return null;
      }));
    }
    read.compose(v -> vertx.eventBus().<JsonObject>request(Addresses.QUOTE_SHEETS_IMPORT,
            new JsonObject().put("vendor", vendor).put("files", payload), new DeliveryOptions().setSendTimeout(120_000)))
        .onSuccess(m -> rc.response().setStatusCode(201).putHeader(HttpHeaders.CONTENT_TYPE, HttpVerticle.JSON)
            .end(Json.encode(Localizer.page(dev.gpurent.config.PlainValues.map(m.body()), lang))))
        .onFailure(e -> HttpErrors.fail(rc, e));
  }
}
