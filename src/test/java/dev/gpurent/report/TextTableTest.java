package dev.gpurent.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TextTableTest {

  @Test
  void pads_by_terminal_columns_so_chinese_cells_line_up() {
    assertEquals(8, TextTable.width("对象存储"));
    assertEquals(9, TextTable.width("推理GPU，"));
    String t = new TextTable(new boolean[] {false, true}, "项目", "月费用").row("对象存储", "200.00").row("total", "5000.00").render("");
    assertEquals("项目       月费用\n对象存储   200.00\ntotal     5000.00\n", t);
  }

  @Test
  void cuts_by_terminal_columns_with_an_ellipsis() {
    assertEquals("ap-guangzhou", TextTable.cut("ap-guangzhou", 18));
    // 华南地区（广州）三区 is 20 columns: cut to 17 columns and the ellipsis, never half a character
    assertEquals("华南地区（广州…", TextTable.cut("华南地区（广州）三区", 16));
    assertEquals(15, TextTable.width(TextTable.cut("华南地区（广州）三区", 16)));
    assertEquals("datacrunch__8xH100_80GB__17…", TextTable.cut("datacrunch__8xH100_80GB__1778abcdef", 28));
  }
}
