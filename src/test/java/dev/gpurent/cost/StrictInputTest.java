package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gpurent.config.YamlFiles;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The readers' floors and types: a figure in range but too small to mean anything (a 0.00 bill, a copy
 * of infinite days) is refused naming its floor; text is never guessed to be a boolean or a list.
 */
class StrictInputTest {

  static final String JOB = "workloads:\n  - kind: training\n    paramsBillions: 7\n    gpuHoursPerMonth: 100\n";
  static final String INFERENCE = "workloads:\n  - kind: inference\n    paramsBillions: 7\n    peakQps: 2\n"
      + "    secondsPerRequest: 2\n    concurrentPerCard: 4\n";

  static Scenario read(String yaml) {
    return new ScenarioReader(CATALOG).read(YamlFiles.parse(new StringReader(yaml), "test.yaml"));
  }

  static String error(String yaml) {
    return assertThrows(InvalidInputException.class, () -> read(yaml)).getMessage();
  }

  @Test
  void gpu_hours_under_one_hour_a_month_are_refused_and_one_hour_is_read() {
    assertEquals("workloads[0].gpuHoursPerMonth: must be between 1 and 10000000, got 0.001",
        error(JOB.replace("gpuHoursPerMonth: 100", "gpuHoursPerMonth: 0.001")));
    assertEquals("workloads[0].gpuHoursPerMonth: must be between 1 and 10000000, got 1.0E-300",
        error(JOB.replace("gpuHoursPerMonth: 100", "gpuHoursPerMonth: 1e-300")));
    assertEquals(1.0, ((Job) read(JOB.replace("gpuHoursPerMonth: 100", "gpuHoursPerMonth: 1")).workloads().get(0)).gpuHoursPerMonth());
  }

  @Test
  void a_migration_link_under_1_mbps_or_of_less_than_a_gb_is_refused() {
    assertEquals("migration.bandwidthMbps: must be 0 or between 1 and 1000000, got 4.9E-324",
        error(INFERENCE + "migration: {gb: 5000, bandwidthMbps: 5e-324}\n"));
    assertEquals("migration.bandwidthMbps: must be 0 or between 1 and 1000000, got 0.5",
        error(INFERENCE + "migration: {gb: 5000, bandwidthMbps: 0.5}\n"));
    assertEquals("migration.gb: must be between 1 and 1000000000, got 0.001", error(INFERENCE + "migration: {gb: 0.001}\n"));
    Migration m = read(INFERENCE + "migration: {gb: 5000, bandwidthMbps: 1}\n").migration().orElseThrow();
    assertEquals(463.0, Math.round(Migration.transferDays(m.gb(), m.bandwidthMbps())));
    assertEquals(0.0, read(INFERENCE + "migration: {gb: 5000, bandwidthMbps: 0}\n").migration().orElseThrow().bandwidthMbps());
  }

  @Test
  void a_latency_target_under_a_millisecond_is_refused_and_0_is_none() {
    assertEquals("workloads[0].latencyTargetSeconds: must be 0 or between 0.001 and 3600, got 1.0E-300",
        error(INFERENCE + "    latencyTargetSeconds: 1e-300\n"));
    assertEquals(0.0, ((Inference) read(INFERENCE + "    latencyTargetSeconds: 0\n").workloads().get(0)).latencyTargetSeconds());
  }

  @Test
  void a_fleet_price_under_a_cent_is_refused() {
    Map<String, Object> fleet = Map.of("fleet", Map.of("gpu", "a100-80g-sxm", "count", 4, "pricePerCardMonth", 0.001),
        "utilization", Map.of("gpuPercent", 22, "vramPercent", 30, "peakQps", 8),
        "workload", Map.of("paramsBillions", 3.5, "secondsPerRequest", 2, "concurrentPerCard", 4));
    assertEquals("fleet.pricePerCardMonth: must be between 0.01 and 1000000000, got 0.001",
        assertThrows(InvalidInputException.class, () -> new FleetReader(CATALOG).read(fleet)).getMessage());
  }

  @Test
  void text_is_not_a_boolean_nor_a_list() {
    assertEquals("workloads[0].interruptible: must be true or false, got 'yes'", error(INFERENCE + "    interruptible: \"yes\"\n"));
    assertEquals("requireComplete: must be true or false, got 'true'", error(INFERENCE + "requireComplete: \"true\"\n"));
    assertEquals(true, read(INFERENCE + "requireComplete: yes\n").constraints().requireComplete(), "YAML's bare yes is a boolean");
    assertEquals("gpuMakers: must be a list", error(INFERENCE + "gpuMakers: nvidia\n"));
    assertEquals("vendors.exclude: must be a list", error(INFERENCE + "vendors: {exclude: acme}\n"));
    assertEquals(List.of("nvidia"), read(INFERENCE + "gpuMakers: [nvidia]\n").constraints().gpuMakers());
  }
}
