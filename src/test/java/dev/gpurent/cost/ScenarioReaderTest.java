package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gpurent.config.YamlFiles;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** Bad scenarios fail once, at the edge, naming the field. */
class ScenarioReaderTest {

  private static final String GOOD = """
      currency: CNY
      workloads:
        - kind: inference
          paramsBillions: 7
          peakQps: 20
          secondsPerRequest: 2
          concurrentPerCard: 4
      """;

  private static Scenario read(String yaml) {
    return new ScenarioReader(CATALOG).read(YamlFiles.parse(new StringReader(yaml), "test.yaml"));
  }

  private static String error(String yaml) {
    return assertThrows(InvalidInputException.class, () -> read(yaml)).getMessage();
  }

  @Test
  void reads_defaults_for_what_is_left_out() {
    Scenario s = read(GOOD);
    assertEquals(12, s.horizonMonths());
    assertEquals(0.3, s.headroom());
    Inference i = (Inference) s.workloads().get(0);
    assertEquals("inference-1", i.name());
    assertEquals(Precision.FP16, i.precision());
    // every day of the 730-hour month commitments are priced at, not 24 x 30 = 720
    assertEquals(730, i.hoursPerMonth());
    assertEquals("rtx-4090", i.referenceGpu());
  }

  @Test
  void names_an_unknown_field_and_the_known_ones() {
    assertEquals("workloads[0].qps: unknown field; known here: allowMultiNode, bound, concurrentPerCard, daysPerMonth, gpu, hoursPerDay, "
        + "interruptible, kind, latencyTargetSeconds, name, paramsBillions, peakQps, precision, referenceGpu, "
        + "restartOverheadHours, secondsPerRequest, vendor", error(GOOD + "    qps: 3\n"));
  }

  @Test
  void refuses_a_negative_qps() {
    assertEquals("workloads[0].peakQps: must be > 0, got -5", error(GOOD.replace("peakQps: 20", "peakQps: -5")));
  }

  @Test
  void refuses_an_unknown_gpu_with_close_matches() {
    assertEquals("workloads[0].gpu: unknown GPU 'RTX 9999'; see config/gpus.yaml for the known cards",
        error(GOOD + "    gpu: RTX 9999\n"));
    assertEquals("workloads[0].gpu: unknown GPU 'RTX 4090 Super'; did you mean rtx-4090?", error(GOOD + "    gpu: RTX 4090 Super\n"));
    assertEquals("rtx-4090", read(GOOD + "    gpu: NVIDIA GeForce RTX 4090\n").workloads().get(0).gpu().orElseThrow());
  }

  @Test
  void refuses_text_where_a_number_belongs() {
    assertEquals("workloads[0].secondsPerRequest: must be a number, got 'two'", error(GOOD.replace("secondsPerRequest: 2", "secondsPerRequest: two")));
  }

  @Test
  void refuses_an_unknown_kind_and_precision() {
    assertEquals("workloads[0].kind: unknown kind 'serving'; known: inference, fine-tune, training, batch",
        error(GOOD.replace("kind: inference", "kind: serving")));
    assertEquals("workloads[0].precision: unknown precision 'fp6'; known: fp32, bf16, fp16, fp8, int8, int4",
        error(GOOD + "    precision: fp6\n"));
  }

  @Test
  void requires_workloads_and_their_hours() {
    assertEquals("workloads: at least one workload is required", error("currency: CNY\n"));
    assertEquals("workloads[0].gpuHoursPerMonth: is required",
        error("workloads:\n  - kind: fine-tune\n    paramsBillions: 7\n"));
  }

  @Test
  void reports_every_bad_field_at_once() {
    InvalidInputException e = assertThrows(InvalidInputException.class, () -> read("""
        currency: yuan
        workloads:
          - kind: inference
            paramsBillions: 7
            peakQps: -1
            secondsPerRequest: 2
            concurrentPerCard: 4
            precision: fp6
          - kind: serving
        loadBalancers: 1.5
        """));
    assertEquals(java.util.List.of(
        new InvalidInputException.Problem("currency", "must be a 3-letter ISO code, got 'YUAN'"),
        new InvalidInputException.Problem("workloads[0].precision", "unknown precision 'fp6'; known: fp32, bf16, fp16, fp8, int8, int4"),
        new InvalidInputException.Problem("workloads[0].peakQps", "must be > 0, got -1"),
        new InvalidInputException.Problem("workloads[1].kind", "unknown kind 'serving'; known: inference, fine-tune, training, batch"),
        new InvalidInputException.Problem("loadBalancers", "must be a whole number")), e.problems());
  }

  @Test
  void says_where_yaml_is_malformed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> YamlFiles.parse(new StringReader("workloads:\n  - kind: [inference\n"), "bad.yaml"));
    assertEquals("bad.yaml:3:1: malformed YAML: expected ',' or ']', but got <stream end>", e.getMessage());
  }
}
