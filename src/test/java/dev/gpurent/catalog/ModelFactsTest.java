package dev.gpurent.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;

/**
 * config/models.yaml and config/throughput.yaml were generated from the recorded facts; this holds
 * every figure in them to ../shared/data (models/models.csv and throughput/throughput.csv), so that
 * neither can drift from its source.
 */
class ModelFactsTest {

  static final Path DATA = Path.of("../shared/data");
  static final ModelCatalog MODELS = ModelCatalog.besides(Path.of("config/gpus.yaml"));

  static List<CSVRecord> csv(Path file) throws Exception {
    try (Reader in = Files.newBufferedReader(file)) {
      return CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(in).getRecords();
    }
  }

  static double num(String s) {
    return s.isEmpty() ? 0 : Double.parseDouble(s);
  }

  @Test
  void every_model_is_its_models_csv_row() throws Exception {
    List<CSVRecord> rows = csv(DATA.resolve("models/models.csv"));
    assertEquals(rows.size(), MODELS.all().size());
    List<Model> models = new ArrayList<>(MODELS.all());
    for (int i = 0; i < rows.size(); i++) {
      CSVRecord r = rows.get(i);
      Model m = models.get(i);
      String at = r.get("model");
      assertEquals(r.get("model"), m.id(), at);
      assertEquals(r.get("hf_repo_id"), m.hf(), at);
      assertEquals(r.get("kind"), m.kind(), at);
      assertEquals(num(r.get("total_params_b")), m.paramsBillions(), at);
      assertEquals(r.get("active_params_b").isEmpty() ? m.paramsBillions() : num(r.get("active_params_b")), m.activeParamsBillions(), at);
      assertEquals(r.get("source"), m.source(), at);
      assertEquals(r.get("params_source"), m.paramsSource(), at);
      if (!m.isLanguageModel()) continue;
      assertEquals(num(r.get("num_hidden_layers")), m.layers(), at);
      assertEquals(num(r.get("num_key_value_heads")), m.kvHeads(), at);
      // head_dim as published, else hidden_size / heads (models/README.md: never the division where head_dim is given)
      String head = r.get("head_dim").isEmpty() ? r.get("head_dim_derived") : r.get("head_dim");
      assertEquals(num(head), m.headDim(), at);
      assertEquals(num(r.get("kv_lora_rank")), m.kvLoraRank(), at);
      assertEquals(num(r.get("qk_rope_head_dim")), m.qkRopeHeadDim(), at);
      assertEquals(num(r.get("max_position_embeddings")), m.maxContext(), at);
    }
  }

  @Test
  void every_throughput_row_is_a_tensorrt_llm_row_of_throughput_csv() throws Exception {
    Map<String, String> gpus = Map.of("H200 141GB HBM3", "h200", "H100 80GB HBM3", "h100-sxm", "GH200 480GB", "gh200", "L40S", "l40s",
        "A100-SXM4-80GB", "a100-80g-sxm", "B200", "b200", "GB200", "gb200", "H100", "h100-sxm", "H200", "h200",
        "RTX 6000 Pro Blackwell Server Edition", "rtx-pro-6000");
    List<Measurement> expected = new ArrayList<>();
    for (CSVRecord r : csv(DATA.resolve("throughput/throughput.csv"))) {
      if (!r.get("source_id").startsWith("trtllm")) continue;
      String model = r.get("model_key").equals("DeepSeek-R1-0528") ? "DeepSeek-R1" : r.get("model_key");
      if (MODELS.byId(model).isEmpty() || r.get("throughput_per_gpu").isEmpty()) continue;
      expected.add(new Measurement(model, gpus.get(r.get("gpu")), Integer.parseInt(r.get("gpu_count")), r.get("parallelism"),
          r.get("precision").toLowerCase(java.util.Locale.ROOT), Integer.parseInt(r.get("input_len")), Integer.parseInt(r.get("output_len")),
          Double.parseDouble(r.get("throughput_per_gpu")), r.get("source_id"), r.get("gpu"), r.get("model")));
    }
    assertEquals(365, expected.size());
    assertEquals(expected, MODELS.measurements());
  }
}
