package dev.gpurent.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.SampleRoot;
import dev.gpurent.adapter.GcpBillingCatalogAdapter;
import dev.gpurent.adapter.Payload;
import dev.gpurent.adapter.SkyPilotCatalogFormat;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Vertx;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code config/regions.yaml} against what the shipped adapters emit: every vendor of the sample
 * root ({@code bench/sample-root.sh}) read from its recorded payload, each region looked up in
 * the vendor's own table.
 */
class RegionsTest {

  static final Regions REGIONS = Fixtures.REGIONS;
  static final Path SKY = Path.of("../shared/data/skypilot-catalog-format");
  static Vertx vertx;
  static Map<String, VendorQuotes> sample;

  @BeforeAll
  static void readSamples() throws Exception {
    vertx = Vertx.vertx();
    sample = SampleRoot.fetchAll(vertx);
  }

  @AfterAll
  static void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get();
  }

  /** table -> the regions its vendors emit, over every sample payload and the extra readings below. */
  static Map<String, Set<String>> emitted() {
    Map<String, Set<String>> out = new TreeMap<>();
    for (VendorDefinition d : SampleRoot.vendors()) {
      VendorQuotes q = sample.get(d.vendor());
      for (Quote x : q.quotes()) if (!x.region().isEmpty()) out.computeIfAbsent(d.regionTable(), t -> new TreeSet<>()).add(x.region());
    }
    // gcp.yaml rejects SkyPilot's GPU-only rows, every row of the recorded GCP catalog; read with
    // gpuOnlyRows: keep, their regions must still be placed for a vendor that keeps them.
    VendorDefinition gcp = VendorDefinition.load(Path.of("adapters/gcp.yaml"));
    Path gcpCsv = SKY.resolve("anycloud-sh/gcp/vms.gpu.csv");
    gcp = VendorDefinition.from(gcp.config().copy().put("gpuOnlyRows", "keep").put("source", gcpCsv.toString()), gcp.where());
    SkyPilotCatalogFormat.parse(Payload.of(gcpCsv), gcp, Fixtures.CATALOG, Fixtures.AT).quotes()
        .forEach(x -> out.computeIfAbsent("gcp", t -> new TreeSet<>()).add(x.region()));
    // The same for the billing catalog's GPU-only SKUs (gcp-catalog.yaml rejects them too).
    VendorDefinition catalogDef = VendorDefinition.load(Path.of("adapters/gcp-catalog.yaml"));
    Path skus = Path.of("../shared/data/gcp/cloud-billing-catalog/jumbo2020-gcp_gpu_skus.skuId-0-D.json");
    try {
      GcpBillingCatalogAdapter.parse(io.vertx.core.buffer.Buffer.buffer(java.nio.file.Files.readAllBytes(skus)),
              VendorDefinition.from(catalogDef.config().copy().put("gpuOnlyRows", "keep"), catalogDef.where()), Fixtures.CATALOG,
              Fixtures.AT).quotes()
          .forEach(x -> out.computeIfAbsent("gcp", t -> new TreeSet<>()).add(x.region()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    // RunPod's SkyPilot catalog (no shipped vendor reads it) writes a country code as the region.
    VendorDefinition lambda = VendorDefinition.load(Path.of("adapters/lambda.yaml"));
    Path runpodCsv = SKY.resolve("skypilot-org/v8/runpod/vms.first48rows.csv");
    VendorDefinition runpod = VendorDefinition.from(lambda.config().copy().put("vendor", "runpod-skypilot")
        .put("regions", "runpod").put("source", runpodCsv.toString()), Path.of("test:runpod-skypilot"));
    SkyPilotCatalogFormat.parse(Payload.of(runpodCsv), runpod, Fixtures.CATALOG, Fixtures.AT).quotes()
        .forEach(x -> out.computeIfAbsent("runpod", t -> new TreeSet<>()).add(x.region()));
    return out;
  }

  @Test
  void places_every_region_the_recorded_payloads_emit_in_a_country() {
    Map<String, Set<String>> emitted = emitted();
    Map<String, Set<String>> unplaced = new TreeMap<>();
    Map<String, Set<String>> noCountry = new TreeMap<>();
    emitted.forEach((table, regions) -> regions.forEach(r -> {
      if (!REGIONS.isListed(table, r)) unplaced.computeIfAbsent(table, t -> new TreeSet<>()).add(r);
      else if (REGIONS.country(table, r).isEmpty()) noCountry.computeIfAbsent(table, t -> new TreeSet<>()).add(r);
    }));
    assertEquals(Map.of(), unplaced, "regions no table places");
    // listed on purpose as naming no country: Hyperbolic's one marketplace-wide region, Daytona's "earth", and "eu"
    assertEquals(Map.of("hyperbolic", Set.of("default"), "daytona", Set.of("earth"), "market", Set.of("eu")), noCountry);
    assertEquals(Set.of("aws", "azure", "cudo", "daytona", "digitalocean", "fluidstack", "gcp", "guide-reference", "hyperbolic",
        "hyperstack", "ibm", "jarvislabs", "lambda", "market", "mithril", "oci", "paperspace", "resold", "runpod", "scp", "seeweb",
        "vast", "verda", "vultr"), emitted.keySet());
    // how many distinct regions each table placed here (Local and Wavelength Zones included for AWS; azure: the SkyPilot
    // catalog's 51 and 8 more of the (disabled) feed file azure-feed; resold: the
    // 62 of Shadeform, 26 of Prime Intellect and 36 of Spheron, 27 of them shared)
    Map<String, Integer> counts = emitted.entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().size(), (a, b) -> a, TreeMap::new));
    assertEquals(Map.ofEntries(Map.entry("aws", 76), Map.entry("azure", 59), Map.entry("cudo", 5), Map.entry("daytona", 1),
        Map.entry("digitalocean", 1), Map.entry("fluidstack", 5), Map.entry("gcp", 42), Map.entry("guide-reference", 1),
        Map.entry("hyperbolic", 1), Map.entry("hyperstack", 3), Map.entry("ibm", 9), Map.entry("jarvislabs", 2),
        Map.entry("lambda", 17), Map.entry("market", 2), Map.entry("mithril", 4), Map.entry("oci", 1), Map.entry("paperspace", 1),
        Map.entry("resold", 97), Map.entry("runpod", 14), Map.entry("scp", 1), Map.entry("seeweb", 1), Map.entry("vast", 34),
        Map.entry("verda", 3), Map.entry("vultr", 11)), counts);
  }

  @Test
  void places_resold_regions_as_the_reseller_writes_their_country_but_one() {
    // Prime Intellect writes each row's country beside the upstream region: the table agrees with every one of
    // its GPU rows except Lambda's me-west-1, which it writes IS (Iceland) and Lambda lists as Israel.
    Map<String, String> disagree = new TreeMap<>();
    for (Quote q : sample.get("primeintellect").quotes()) {
      String placed = REGIONS.country("resold", q.region()).orElse("");
      if (!placed.equals(q.country())) disagree.put(q.region(), q.country() + " -> " + placed);
    }
    assertEquals(Map.of("me-west-1", "IS -> IL"), disagree);
    assertEquals(Optional.of("US"), REGIONS.country("resold", "a3111bd4-550a-47d0-838a-0a52bff2ae3f"), "dc_roan, Region US");
    // the same upstream region, whoever resells it
    assertEquals(Optional.of("CA"), REGIONS.country("resold", "CANADA-1"));
    assertEquals(Optional.of("CA"), REGIONS.country("hyperstack", "CANADA-1"));
    assertEquals(Optional.of("FI"), REGIONS.country("resold", "Finland 3"));
    assertEquals(Optional.of("FI"), REGIONS.country("verda", "FIN-03"));
  }

  @Test
  void places_named_regions_in_their_countries() {
    assertEquals(Optional.of("US"), REGIONS.country("aws", "us-east-1"));
    assertEquals(Optional.of("PE"), REGIONS.country("aws", "us-east-1-lim-1"), "a Local Zone is placed by its own city");
    assertEquals(Optional.of("NG"), REGIONS.country("aws", "af-south-1-los-1"));
    assertEquals(Optional.of("CN"), REGIONS.country("aws", "cn-northwest-1"));
    assertEquals(Optional.of("NL"), REGIONS.country("azure", "westeurope"));
    assertEquals(Optional.of("IE"), REGIONS.country("azure", "northeurope"));
    assertEquals(Optional.of("TW"), REGIONS.country("gcp", "asia-east1"));
    assertEquals(Optional.of("NL"), REGIONS.country("gcp", "europe-west4"));
    assertEquals(Optional.of("MA"), REGIONS.country("oci", "af-casablanca-1"));
    assertEquals(Optional.of("IT"), REGIONS.country("lambda", "europe-south-1"));
    assertEquals(Optional.of("KR"), REGIONS.country("scp", "KOREA-WEST-1-SCP-B001"));
    assertEquals(Optional.of("NO"), REGIONS.country("cudo", "no-kristiansand-1"));
    assertEquals(Optional.of("GB"), REGIONS.country("cudo", "gb-bournemouth-1"), "by the <country>-<city>-<n> rule");
    assertEquals(Optional.of("US"), REGIONS.country("fluidstack", "NORTH_DAKOTA_USA"));
    assertEquals(Optional.of("US"), REGIONS.country("paperspace", "East Coast (NY2)"));
    assertEquals(Optional.of("CN"), REGIONS.country("guide-reference", "cn"));
    assertEquals(Optional.of("IT"), REGIONS.country("seeweb", "it-fr2"), "Frosinone");
    assertEquals(Optional.of("IN"), REGIONS.country("jarvislabs", "IN2"));
    assertEquals(Optional.of("US"), REGIONS.country("mithril", "us-central5-a"));
    assertEquals(Optional.of("US"), REGIONS.country("mithril", "us-central1-b"), "by the us-<region>-<zone> rule");
    assertEquals(Optional.empty(), REGIONS.country("daytona", "earth"));
    assertTrue(REGIONS.isListed("daytona", "earth"));
  }

  @Test
  void reads_the_country_word_out_of_city_country_ids() {
    assertEquals(Optional.of("US"), REGIONS.country("resold", "ashburn-usa-7"));
    assertEquals(Optional.of("IS"), REGIONS.country("resold", "blonduos-iceland-2"));
    assertEquals(Optional.of("GB"), REGIONS.country("resold", "london-uk-1"), "uk is GB");
    assertEquals(Optional.of("NO"), REGIONS.country("resold", "kristiansand-norway-2"));
    assertEquals(Optional.of("SG"), REGIONS.country("resold", "singapore-singapore-1"));
    assertEquals(Optional.empty(), REGIONS.country("resold", "atlantis-ocean-1"), "a word no rule knows");
    assertFalse(REGIONS.isListed("resold", "atlantis-ocean-1"));
  }

  @Test
  void reads_the_country_out_of_marketplace_locations() {
    // the Vast host in Sverdlovsk and one in Czechia, as SkyPilot's Vast catalog writes them
    assertTrue(sample.get("vast").quotes().stream().anyMatch(q -> q.region().equals("Sverdlovsk Oblast, RU, EU")));
    assertEquals(Optional.of("RU"), REGIONS.country("vast", "Sverdlovsk Oblast, RU, EU"));
    assertEquals(Optional.of("CZ"), REGIONS.country("vast", "Czechia, CZ, EU"));
    assertEquals(Optional.of("US"), REGIONS.country("vast", "US, NA"), "NA after the code is North America, not Namibia");
    assertEquals(Optional.of("CZ"), REGIONS.country("vast", "CZ"), "the vast-bundles adapter keeps the code alone");
    assertEquals(Optional.of("RU"), REGIONS.country("vast", "Yekaterinburg, RU"), "the API's own City, CC");
    assertEquals(Optional.of("SA"), REGIONS.country("vast", "Jeddah, SA"), "SA alone is Saudi Arabia");
    assertEquals(Optional.of("CZ"), REGIONS.country("market", "CZ"));
    assertEquals(Optional.of("US"), REGIONS.country("market", "us"));
    assertEquals(Optional.empty(), REGIONS.country("market", "eu"));
    assertTrue(REGIONS.isListed("market", "eu"));
    assertEquals(Optional.of("IS"), REGIONS.country("runpod", "EUR-IS-1"));
    assertEquals(Optional.of("CA"), REGIONS.country("runpod", "CA-MTL-1"));
    assertEquals(Optional.of("US"), REGIONS.country("runpod", "US-TX-3"));
    assertEquals(Optional.of("SG"), REGIONS.country("runpod", "SEA-SG-1"));
  }

  @Test
  void answers_empty_for_what_it_cannot_place() {
    assertEquals(Optional.empty(), REGIONS.country("aws", "us-east-1-xyz-1"));
    assertFalse(REGIONS.isListed("aws", "us-east-1-xyz-1"));
    assertEquals(Optional.empty(), REGIONS.country("aws", ""));
    assertEquals(Optional.empty(), REGIONS.country("no-such-table", "us-east-1"));
    assertEquals(Optional.empty(), REGIONS.country("vast", "Atlantis, XX, EU"), "XX is no country");
    assertEquals(Optional.empty(), REGIONS.country("hyperbolic", "default"));
    assertEquals(Optional.empty(), Regions.none().country("aws", "us-east-1"));
  }

  @Test
  void gives_each_country_its_continent() {
    assertEquals(Optional.of("north-america"), Regions.continentOf("US"));
    assertEquals(Optional.of("north-america"), Regions.continentOf("us"));
    assertEquals(Optional.of("north-america"), Regions.continentOf("MX"));
    assertEquals(Optional.of("south-america"), Regions.continentOf("BR"));
    assertEquals(Optional.of("europe"), Regions.continentOf("CZ"));
    assertEquals(Optional.of("europe"), Regions.continentOf("RU"));
    assertEquals(Optional.of("asia"), Regions.continentOf("TR"));
    assertEquals(Optional.of("asia"), Regions.continentOf("CN"));
    assertEquals(Optional.of("asia"), Regions.continentOf("IL"));
    assertEquals(Optional.of("africa"), Regions.continentOf("ZA"));
    assertEquals(Optional.of("africa"), Regions.continentOf("MA"));
    assertEquals(Optional.of("oceania"), Regions.continentOf("AU"));
    assertEquals(Optional.empty(), Regions.continentOf("AQ"));
    assertEquals(Optional.empty(), Regions.continentOf("EU"));
    assertEquals(Optional.empty(), Regions.continentOf(""));
    assertEquals(Optional.empty(), Regions.continentOf(null));
  }

  @Test
  void knows_the_continent_of_every_iso_country_but_antarctica() {
    Set<String> iso = new TreeSet<>(Arrays.asList(Locale.getISOCountries()));
    iso.remove("AQ");
    assertEquals(iso, Regions.countries());
    assertTrue(Regions.countries().stream().allMatch(c -> Regions.CONTINENTS.contains(Regions.continentOf(c).orElseThrow())));
  }

  @Test
  void places_every_entry_of_every_table_on_a_continent() {
    for (String table : REGIONS.tables()) {
      REGIONS.entries(table).forEach((region, country) -> assertTrue(country.isEmpty()
          || Regions.continentOf(country).isPresent(), table + "." + region));
    }
  }

  static Regions parse(String yaml) {
    return Regions.parse(YamlFiles.parse(new StringReader(yaml), "test.yaml"), "test.yaml");
  }

  @Test
  void refuses_a_file_with_a_code_that_is_no_country() {
    assertEquals("test.yaml: tables.aws.eu-west-2: 'UK' is not an ISO 3166-1 alpha-2 country code (\"\" for a region "
        + "that names no country)", assertThrows(IllegalArgumentException.class,
        () -> parse("tables:\n  aws:\n    eu-west-2: UK\n")).getMessage());
    assertEquals("test.yaml: tables.cudo.no-oslo-1: false is a YAML boolean: quote the code (\"NO\" is Norway)",
        assertThrows(IllegalArgumentException.class, () -> parse("tables:\n  cudo:\n    no-oslo-1: NO\n")).getMessage());
    assertEquals("test.yaml: rules.vast[0]: country $1 needs a group in match", assertThrows(IllegalArgumentException.class,
        () -> parse("rules:\n  vast:\n    - {match: '^[A-Z]{2}$', country: $1}\n")).getMessage());
    assertEquals(List.of("aws"), List.copyOf(parse("tables:\n  aws:\n    eu-west-2: \"GB\"\n").tables()));
  }
}
