package dev.gpurent.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** CSV exports never hand a spreadsheet a formula: OWASP's rule for cells beginning = + - @ tab CR. */
class CsvTest {

  @Test
  void cells_that_would_run_as_formulas_are_neutralised() {
    assertEquals("'=1+1,'@SUM(A1:A9),'+cmd,'-2+3,'\t=x,\"'\r=y\",-12.5,-3,plain\r\n",
        new Csv().row("=1+1", "@SUM(A1:A9)", "+cmd", "-2+3", "\t=x", "\r=y", "-12.5", -3, "plain").toString());
  }

  @Test
  void imported_history_regions_come_out_as_text_in_every_export() {
    JsonArray series = new JsonArray().add(new JsonObject().put("vendor", "v").put("region", "=1+1").put("offer", "@SUM(A1:A9)")
        .put("gpu", "h100").put("billing", "on-demand").put("currency", "USD").put("unit", "hour")
        .put("points", new JsonArray().add(new JsonObject().put("at", "2026-03-01T00:00:00Z").put("price", "2.5"))));
    assertEquals("v,'=1+1,'@SUM(A1:A9),h100,on-demand,USD,hour,2026-03-01T00:00:00Z,2.5\r\n",
        HistoryCsv.history(series).split("\r\n", 2)[1]);
    JsonObject diff = new JsonObject().put("changed", new JsonArray().add(new JsonObject().put("vendor", "v").put("region", "-x")
        .put("offer", "o").put("gpu", "g").put("billing", "spot").put("before", "1").put("after", "2").put("currency", "USD")
        .put("unit", "hour").put("percent", -50.0)));
    assertEquals("changed,v,'-x,o,g,spot,1,2,USD,hour,-50.0\r\n", HistoryCsv.diff(diff).split("\r\n", 2)[1]);
    JsonObject snapshot = new JsonObject().put("id", 1).put("takenAt", "t").put("quotes", new JsonArray().add(new JsonObject()
        .put("vendor", "@v").put("region", "r").put("offer", "o").put("gpu", "g").put("gpuCount", 1).put("billing", "b")
        .put("price", "1").put("currency", "USD").put("unit", "hour").put("observedAt", "t").put("source", "=HYPERLINK(\"x\")")));
    assertEquals("1,t,'@v,r,o,g,1,b,1,USD,hour,t,\"'=HYPERLINK(\"\"x\"\")\"\r\n", HistoryCsv.snapshot(snapshot).split("\r\n", 2)[1]);
  }
}
