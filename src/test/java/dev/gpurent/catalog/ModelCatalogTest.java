package dev.gpurent.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.config.YamlFiles;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Model names as people type them, and the refusal of a name no model answers to. */
class ModelCatalogTest {

  static final ModelCatalog MODELS = ModelCatalog.besides(Path.of("config/gpus.yaml"));

  @Test
  void finds_a_model_however_people_write_its_name() {
    for (String name : List.of("qwen2.5-72b", "Qwen/Qwen2.5-72B-Instruct", "Qwen2.5-72B", "qwen2.5:72b")) {
      assertEquals("Qwen2.5-72B", MODELS.resolve(name).id(), name);
    }
    for (String name : List.of("llama3.1:70b", "meta-llama/Llama-3.1-70B-Instruct", "meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo",
        "meta-llama/llama-3.1-70b-instruct")) {
      assertEquals("Llama-3.1-70B", MODELS.resolve(name).id(), name);
    }
    assertEquals("DeepSeek-R1", MODELS.resolve("deepseek-r1").id());
    assertEquals("DeepSeek-R1-Distill-Llama-70B", MODELS.resolve("deepseek-r1:70b").id());
    assertEquals("Gemma-2-9B", MODELS.resolve("google/gemma-2-9b-it").id());
  }

  @Test
  void refuses_an_unknown_name_with_the_nearest_known_ones() {
    // "qwen2570b" is one edit from "qwen257b" and from "qwen2572b" (ties in the file's order), two from "qwen2514b"
    UnknownModelException e = assertThrows(UnknownModelException.class, () -> MODELS.resolve("qwen2.5-70b"));
    assertEquals("unknown model 'qwen2.5-70b'; nearest known: Qwen2.5-7B, Qwen2.5-72B, Qwen2.5-14B (config/models.yaml lists them all)",
        e.getMessage());
  }

  @Test
  void a_scenario_naming_an_unknown_model_is_refused_on_its_field() {
    String yaml = """
        workloads:
          - kind: inference
            model: llama-4-70b
            contextTokens: 4096
            concurrentSequences: 4
            requestsPerSecond: 1
            inputTokens: 100
            outputTokens: 100
        """;
    InvalidInputException e = assertThrows(InvalidInputException.class,
        () -> new ScenarioReader(dev.gpurent.Fixtures.CATALOG, MODELS, 50).read(YamlFiles.parse(new StringReader(yaml), "t")));
    assertEquals("workloads[0].model", e.problems().get(0).field());
    assertEquals("unknown model 'llama-4-70b'; nearest known: Llama-3.1-70B, Llama-3.3-70B, Llama-3.1-8B (config/models.yaml lists them all)",
        e.problems().get(0).reason());
  }

  @Test
  void refuses_a_model_and_params_together_and_guide_fields_in_model_sizing() {
    String yaml = """
        workloads:
          - kind: inference
            model: qwen2.5-7b
            paramsBillions: 7
            secondsPerRequest: 2
            concurrentSequences: 4
            requestsPerSecond: 1
            inputTokens: 100
            outputTokens: 100
        """;
    InvalidInputException e = assertThrows(InvalidInputException.class,
        () -> new ScenarioReader(dev.gpurent.Fixtures.CATALOG, MODELS, 50).read(YamlFiles.parse(new StringReader(yaml), "t")));
    assertEquals(List.of("workloads[0].paramsBillions", "workloads[0].secondsPerRequest"),
        e.problems().stream().map(InvalidInputException.Problem::field).toList());
  }
}
