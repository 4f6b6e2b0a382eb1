package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A status counts the rows a payload refused, not the lines that summarise them. */
class RowLogTest {

  @Test
  void counts_summarised_skips_as_their_rows() {
    RowLog log = new RowLog();
    log.reject("row 3: unknown GPU 'RTX 9999'");
    for (int i = 0; i < 1200; i++) log.skip("not a GPU instance", "m5.large");
    log.skip("Windows", "g4dn.xlarge/windows");
    List<String> lines = log.lines("row");
    assertEquals(List.of("row 3: unknown GPU 'RTX 9999'", "skipped 1200 rows: not a GPU instance (first: m5.large)",
        "skipped 1 row: Windows (first: g4dn.xlarge/windows)"), lines);
    assertArrayEquals(new long[] {1, 1201}, RowLog.rowCounts(lines));
  }
}
