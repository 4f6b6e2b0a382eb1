package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Refused rows as a status page lists them: where and why, the first N, and the rows per kind of reason. */
class RefusedRowsTest {

  @Test
  void lists_where_and_why_and_counts_rows_per_kind_of_reason() {
    RowLog log = new RowLog();
    log.reject("gpuTypes[0] (AMD Instinct MI300X OAM): communityPrice 0.5 not offered: communityCloud is false (a placeholder)");
    log.reject("gpuTypes[5] (NVIDIA B200): communityPrice 0.5 not offered: communityCloud is false (a placeholder)");
    log.reject("gpuTypes[3] (NVIDIA A30): securePrice 0.41 not offered: secureCloud is false (a placeholder)");
    log.reject("row 7: unknown GPU 'RTX 9999'");
    for (int i = 0; i < 1200; i++) log.skip("not a GPU instance", "m5.large");
    RefusedRows r = RefusedRows.of(log.lines("row"), 3);
    assertEquals(1204, r.total());
    Map<String, Long> kinds = new LinkedHashMap<>();
    kinds.put("skipped: not a GPU instance", 1200L);
    kinds.put("communityPrice N not offered: communityCloud is false", 2L);
    kinds.put("securePrice N not offered: secureCloud is false", 1L);
    kinds.put("unknown GPU '…'", 1L);
    assertEquals(kinds, r.byReason());
    assertEquals(List.of(
        new RefusedRows.Row("gpuTypes[0] (AMD Instinct MI300X OAM)", "communityPrice 0.5 not offered: communityCloud is false (a placeholder)"),
        new RefusedRows.Row("gpuTypes[5] (NVIDIA B200)", "communityPrice 0.5 not offered: communityCloud is false (a placeholder)"),
        new RefusedRows.Row("gpuTypes[3] (NVIDIA A30)", "securePrice 0.41 not offered: secureCloud is false (a placeholder)")), r.first());
    RefusedRows all = RefusedRows.of(log.lines("row"), 100);
    assertEquals(new RefusedRows.Row("first: m5.large", "skipped: not a GPU instance"), all.first().get(4));
  }
}
