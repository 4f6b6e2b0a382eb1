package dev.gpurent.service;
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;

import static dev.gpurent.testing.ServiceFixtures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.config.PlainValues;
import dev.gpurent.report.RankingWorkbook;
import dev.gpurent.report.RankingXlsx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.util.Map;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ranking workbook over HTTP: {@code POST /api/rank} and a live scenario's ranking with the
 * xlsx Accept type answer a workbook that POI opens and whose formulas give the JSON's figures;
 * the labels follow Accept-Language. Against the service as `serve` starts it, with the recorded
 * RunPod and Vast payloads on loopback and the guide's reference sheet.
 */
class RankingXlsxServiceTest {

  static RunningService app;
  static Bootstrap.Running service;
  static WebClient client;
  @TempDir static Path root;

  @BeforeAll
  static void start() throws Exception {
    app = RunningService.prepare(root);
    client = app.client();
    service = app.start();
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  static HttpResponse<Buffer> rank(JsonObject scenario, String accept, String language) throws Exception {
    var req = client.post(service.port(), "127.0.0.1", "/api/rank").putHeader("Accept", accept);
    if (language != null) req.putHeader("Accept-Language", language);
    return await(req.sendJson(scenario));
  }

  @Test
  void post_rank_answers_the_workbook_with_the_jsons_figures() throws Exception {
    JsonObject scenario = ServiceFixtures.scenario("guide-template.yaml");
    HttpResponse<Buffer> json = rank(scenario, "application/json", null);
    assertEquals(200, json.statusCode(), json.bodyAsString());
    HttpResponse<Buffer> xlsx = rank(scenario, RankingXlsx.MEDIA_TYPE, null);
    assertEquals(200, xlsx.statusCode(), xlsx.bodyAsString());
    assertEquals(RankingXlsx.MEDIA_TYPE, xlsx.getHeader("content-type"));
    assertEquals("attachment; filename=\"gpurent-guide-template-5.1.xlsx\"", xlsx.getHeader("content-disposition"));
    Map<String, Object> ranking = PlainValues.map(json.bodyAsJsonObject());
    try (XSSFWorkbook wb = RankingWorkbook.open(xlsx.body().getBytes())) {
      assertTrue(RankingWorkbook.assertMatches(ranking, wb) >= 5);
      assertEquals("Summary", wb.getSheetName(0));
      assertEquals(5000.0, wb.getSheet("1 guide-reference").getRow(8).getCell(5).getNumericCellValue());
    }
  }

  @Test
  void the_labels_follow_accept_language() throws Exception {
    HttpResponse<Buffer> xlsx = rank(ServiceFixtures.scenario("team-small.yaml"), RankingXlsx.MEDIA_TYPE, "zh-CN,zh;q=0.9,en;q=0.5");
    assertEquals(200, xlsx.statusCode(), xlsx.bodyAsString());
    try (XSSFWorkbook wb = RankingWorkbook.open(xlsx.body().getBytes())) {
      assertEquals("汇总", wb.getSheetName(0));
      // a bill's headings, row 3: 项目 规格 数量 单价 单位 月费用 ...
      assertEquals("月费用", wb.getSheetAt(1).getRow(2).getCell(5).getStringCellValue());
    }
  }

  @Test
  void a_live_scenarios_ranking_comes_as_a_workbook_too() throws Exception {
    HttpResponse<Buffer> created = await(client.post(service.port(), "127.0.0.1", "/api/scenarios")
        .sendJson(ServiceFixtures.scenario("team-medium.yaml")));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    String path = created.bodyAsJsonObject().getString("ranking");
    HttpResponse<Buffer> json = await(client.get(service.port(), "127.0.0.1", path).send());
    assertEquals(200, json.statusCode(), json.bodyAsString());
    HttpResponse<Buffer> xlsx = await(client.get(service.port(), "127.0.0.1", path).putHeader("Accept", RankingXlsx.MEDIA_TYPE).send());
    assertEquals(200, xlsx.statusCode(), xlsx.bodyAsString());
    assertEquals(RankingXlsx.MEDIA_TYPE, xlsx.getHeader("content-type"));
    assertEquals("attachment; filename=\"" + RankingXlsx.fileName(json.bodyAsJsonObject().getString("scenario")) + "\"",
        xlsx.getHeader("content-disposition"));
    try (XSSFWorkbook wb = RankingWorkbook.open(xlsx.body().getBytes())) {
      assertTrue(RankingWorkbook.assertMatches(PlainValues.map(json.bodyAsJsonObject()), wb) > 0);
    }
    assertEquals(204, await(client.delete(service.port(), "127.0.0.1", path.replace("/ranking", "")).send()).statusCode());
  }
}
