package dev.gpurent.service.http;

import dev.gpurent.quote.TokenPriceBook;
import dev.gpurent.quote.TokenQuote;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.OptionalInt;

/** {@code GET /api/token-prices?model=&limit=}: the inference APIs' per-token prices the quote book carries. */
final class TokenPriceRoutes {

  /** The longest {@code model} filter read; a longer one is no model name. */
  static final int MAX_MODEL = 200;

  private final Vertx vertx;

  TokenPriceRoutes(Vertx vertx) {
    this.vertx = vertx;
  }

  void mount(Router router) {
    router.get("/api/token-prices").handler(this::prices);
  }

  private void prices(RoutingContext rc) {
    String model = rc.queryParams().get("model");
    if (model != null && model.length() > MAX_MODEL) {
      HttpErrors.invalid(rc, List.of(new dev.gpurent.cost.InvalidInputException.Problem("model",
          "at most " + MAX_MODEL + " characters, got " + model.length())));
      return;
    }
    OptionalInt limit = ApiSupport.intParam(rc, "limit", 500, 0, 100_000);
    if (limit.isEmpty()) return;
    ApiSupport.book(vertx).onSuccess(book -> {
      TokenPriceBook prices = book.tokenPrices();
      List<TokenQuote> found = prices.find(model);
      JsonArray quotes = new JsonArray();
      found.stream().limit(limit.getAsInt()).forEach(q -> quotes.add(new JsonObject(q.toMap())));
      ApiSupport.json(rc, 200, new JsonObject().put("model", model).put("total", found.size()).put("quotes", quotes)
          .put("sources", new JsonArray(prices.sources())).put("refused", new JsonArray(prices.refused())).encode());
    }).onFailure(e -> HttpErrors.fail(rc, e));
  }
}
