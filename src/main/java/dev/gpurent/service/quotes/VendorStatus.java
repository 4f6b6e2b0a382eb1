package dev.gpurent.service.quotes;

import dev.gpurent.adapter.RefusedRows;
import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** One vendor's status as {@code gpurent.quotes.status} answers it: its fetch history, freshness and refused rows. */
final class VendorStatus {

  private VendorStatus() {}

  /** With {@code refused}, its refused rows as {@link RefusedRows} reads them; {@code q} is what the book holds of it, or null. */
  static JsonObject of(VendorState v, VendorQuotes q, Instant now, Duration expireAfter, boolean refused) {
    Freshness f = q == null ? null : v.freshness(now, expireAfter);
    long[] rows = q == null ? new long[2] : dev.gpurent.adapter.RowLog.rowCounts(q.rejected());
    JsonObject out = new JsonObject()
        .put("vendor", v.def.vendor()).put("name", v.def.displayName()).put("kind", v.def.kind()).put("source", v.source)
        .put("quotes", q == null ? 0 : q.quotes().size()).put("rejected", rows[0]).put("skipped", rows[1])
        .put("freshness", f == null ? (v.expired != null ? "expired" : "unavailable") : f.state().name().toLowerCase())
        .put("ageSeconds", f == null ? null : f.age().toSeconds())
        .put("lastSuccess", str(v.lastSuccess)).put("lastAttempt", str(v.lastAttempt))
        .put("lastError", dev.gpurent.config.UserText.withoutPaths(v.lastError)).put("lastErrorAt", str(v.lastErrorAt))
        .put("notice", v.notice)
        .put("breaker", v.breaker.state().name().toLowerCase()).put("refreshes", v.refreshes).put("failures", v.failures);
    if (refused) {
      List<String> lines = q == null ? List.of() : q.rejected().stream().map(dev.gpurent.config.UserText::withoutPaths).toList();
      out.put("refused", new JsonObject(RefusedRows.of(lines, RefusedRows.LIMIT).toMap()));
    }
    return out;
  }

  private static String str(Instant i) {
    return i == null ? null : i.toString();
  }
}
