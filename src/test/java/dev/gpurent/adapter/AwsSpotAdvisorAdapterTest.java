package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.quote.SpotRisk;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class AwsSpotAdvisorAdapterTest {

  static final Path FILE = Path.of("../shared/data/aws/spot-advisor/spot-advisor-data.2025-06-28.json");
  static final Instant FETCHED = Instant.parse("2025-06-28T00:00:00Z");

  static SpotRisk risk;

  @BeforeAll
  static void load() throws IOException {
    risk = AwsSpotAdvisorAdapter.parse(Buffer.buffer(Files.readAllBytes(FILE)), FILE.toString(), FETCHED);
  }

  @Test
  void reads_every_region_of_the_2025_feed() {
    assertEquals(33, risk.regions().size());
    assertTrue(risk.regions().contains("us-east-1"));
    assertTrue(risk.regions().contains("mx-central-1"));
    assertEquals(14962, risk.size());              // Linux entries only
    assertEquals(894, risk.bands("us-east-1").size());
    assertEquals(List.of(), risk.rejected());
    assertEquals(FETCHED, risk.fetchedAt());
    assertEquals(FILE.toString(), risk.source());
  }

  @Test
  void gives_the_band_and_saving_of_gpu_instances_in_us_east_1() {
    SpotRisk.Band g4 = risk.of("us-east-1", "g4dn.xlarge").orElseThrow();
    assertEquals(64, g4.savingPercent());          // {"s": 64, "r": 3}
    assertEquals(3, g4.rangeIndex());
    assertEquals("15-20%", g4.label());
    assertEquals(0.175, g4.interruptionProbability());

    SpotRisk.Band p3 = risk.of("us-east-1", "p3.2xlarge").orElseThrow();
    assertEquals(80, p3.savingPercent());          // {"s": 80, "r": 4}
    assertEquals(">20%", p3.label());
    assertEquals(0.25, p3.interruptionProbability());

    SpotRisk.Band p4d = risk.of("us-east-1", "p4d.24xlarge").orElseThrow();
    assertEquals(67, p4d.savingPercent());
    assertEquals("10-15%", p4d.label());
    assertEquals(0.125, p4d.interruptionProbability());

    SpotRisk.Band g5Ireland = risk.of("eu-west-1", "g5.xlarge").orElseThrow();  // {"s": 56, "r": 2}
    assertEquals(56, g5Ireland.savingPercent());
    assertEquals("10-15%", g5Ireland.label());
  }

  @Test
  void maps_band_labels_to_mid_point_probabilities() {
    assertEquals(0.025, SpotRisk.midpoint("<5%"));
    assertEquals(0.075, SpotRisk.midpoint("5-10%"));
    assertEquals(0.125, SpotRisk.midpoint("10-15%"));
    assertEquals(0.175, SpotRisk.midpoint("15-20%"));
    assertEquals(0.25, SpotRisk.midpoint(">20%"));
    assertThrows(IllegalArgumentException.class, () -> SpotRisk.midpoint("often"));
  }

  @Test
  void has_nothing_for_an_unknown_instance_or_region() {
    assertEquals(Optional.empty(), risk.of("us-east-1", "z9.mega"));
    assertEquals(Optional.empty(), risk.of("cn-north-1", "g4dn.xlarge"));
    assertEquals(Optional.empty(), risk.of(null, "g4dn.xlarge"));
  }

  @Test
  void rejects_bad_entries_and_refuses_a_payload_that_is_not_the_feed() {
    SpotRisk r = AwsSpotAdvisorAdapter.parse(Buffer.buffer("""
        {"ranges": [{"index": 0, "label": "<5%"}, {"index": 1, "label": "sometimes"}],
         "spot_advisor": {"us-east-1": {"Linux": {"g4dn.xlarge": {"s": 70, "r": 0}, "p3.2xlarge": {"s": 80, "r": 7},
                                                 "g5.xlarge": "n/a"}},
                          "xx-test-1": {"Windows": {}}}}
        """), "inline", FETCHED);
    assertEquals(1, r.size());
    assertEquals(0.025, r.of("us-east-1", "g4dn.xlarge").orElseThrow().interruptionProbability());
    assertEquals(List.of(
        "ranges[1]: interruption band 'sometimes' is not of the form <X%, A-B% or >X%",
        "spot_advisor.us-east-1.Linux.p3.2xlarge: range index 7 is not in 'ranges'",
        "spot_advisor.us-east-1.Linux.g5.xlarge: expected {s: saving %, r: range index}, got n/a",
        "spot_advisor.xx-test-1: no Linux figures"), r.rejected());
    assertThrows(IllegalArgumentException.class, () -> AwsSpotAdvisorAdapter.parse(Buffer.buffer("[1, 2]"), "x", FETCHED));
    assertThrows(IllegalArgumentException.class, () -> AwsSpotAdvisorAdapter.parse(Buffer.buffer("{\"a\": 1}"), "x", FETCHED));
  }

  @Test
  void fetches_the_feed_on_a_worker_thread(Vertx vertx, VertxTestContext ctx) {
    AwsSpotAdvisorAdapter.fetch(vertx, FILE.toString(), Duration.ofSeconds(30)).onComplete(ctx.succeeding(r -> ctx.verify(() -> {
      assertEquals(33, r.regions().size());
      assertEquals("15-20%", r.of("us-east-1", "g4dn.xlarge").orElseThrow().label());
      assertEquals(FILE.toString(), r.source());
      ctx.completeNow();
    })));
  }

  @Test
  void fails_the_fetch_for_a_missing_file(Vertx vertx, VertxTestContext ctx) {
    AwsSpotAdvisorAdapter.fetch(vertx, "../shared/data/aws/spot-advisor/nope.json", Duration.ofSeconds(5))
        .onComplete(ctx.failing(e -> ctx.completeNow()));
  }
}
