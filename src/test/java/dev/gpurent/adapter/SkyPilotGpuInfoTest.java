package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code GpuInfo} in each form the recorded catalogs write it. Every cell is read out of its file
 * (the first data row's, by header name), so what is parsed is exactly what the adapter meets.
 */
class SkyPilotGpuInfoTest {

  private static final Path DATA = Path.of("../shared/data/skypilot-catalog-format");

  /** The first non-empty GpuInfo cell of a recorded file (CPU rows have none). */
  private static String firstCell(String sample) throws IOException {
    try (CsvRows csv = CsvRows.of(Files.newBufferedReader(DATA.resolve(sample), StandardCharsets.UTF_8))) {
      int col = csv.next().cells().indexOf("GpuInfo");
      for (CsvRows.Row r = csv.next(); r != null; r = csv.next()) {
        List<String> f = r.cells();
        if (col < f.size() && !f.get(col).isBlank()) return f.get(col);
      }
      throw new AssertionError(sample + " has no GpuInfo");
    }
  }

  private static SkyPilotGpuInfo parsed(String sample) throws IOException {
    String cell = firstCell(sample);
    Optional<SkyPilotGpuInfo> info = SkyPilotGpuInfo.parse(cell);
    assertTrue(info.isPresent(), sample + ": " + cell);
    return info.get();
  }

  @Test
  void reads_the_python_literal_form() throws IOException {
    // mithril: {'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 655360}
    SkyPilotGpuInfo i = parsed("skypilot-org/v8/mithril/vms.csv");
    assertEquals(new SkyPilotGpuInfo("H100", 81920, 655360), i);
    assertEquals(80, i.perGpuGiB(8).getAsDouble());
  }

  @Test
  void reads_json_whose_quotes_the_csv_doubled() throws IOException {
    // primeintellect: {"Gpus":[{"Name":"A100-80GB","Count":8,"MemoryInfo":{"SizeInMiB":655360}}],"TotalGpuMemoryInMiB":5242880}
    SkyPilotGpuInfo i = parsed("skypilot-org/v8/primeintellect/vms.csv");
    assertEquals(new SkyPilotGpuInfo("A100-80GB", 655360, 5242880), i);
    // The cell as stated: 640 GiB "per GPU", which is why the adapter trusts the card and count instead.
    assertEquals(640, i.perGpuGiB(8).getAsDouble());
    assertEquals("TotalGpuMemoryInMiB 5242880 over 8 GPUs", i.memoryField(8));
  }

  @Test
  void reads_hyperstack_form_with_a_bare_null() throws IOException {
    String cell = firstCell("skypilot-org/v8/hyperstack/vms.csv");
    assertTrue(cell.contains("'Manufacturer': null"), cell);
    assertEquals(new SkyPilotGpuInfo("A100-80G-PCIe", 81920, 81920), SkyPilotGpuInfo.parse(cell).orElseThrow());
  }

  @Test
  void reads_totals_inside_the_gpu_entry_and_gb_written_as_mib() throws IOException {
    // shadeform: ... 'MemoryInfo': {'SizeInMiB': 48}, 'TotalGpuMemoryInMiB': 384}]} for 8 A6000: GB, inside the entry.
    SkyPilotGpuInfo shade = parsed("skypilot-org/v8/shadeform/vms.csv");
    assertEquals(new SkyPilotGpuInfo("A6000", 48, 384), shade);
    assertEquals(48, shade.perGpuGiB(8).getAsDouble());
    // spheron: JSON with the total inside the entry, in MiB.
    SkyPilotGpuInfo spheron = parsed("skypilot-org/v8/spheron/vms.csv");
    assertEquals(new SkyPilotGpuInfo("H100_SXM5", 81920, 81920), spheron);
    assertEquals(80, spheron.perGpuGiB(1).getAsDouble());
  }

  @Test
  void reads_lowercase_keys_and_quoted_counts() throws IOException {
    // DigitalOcean writes lowercase keys ({'gpus': [{'name': 'h100', ... 'memoryinfo': {'sizeinmib': 81559}}], ...}).
    assertEquals(new SkyPilotGpuInfo("h100", 81559, 81559), parsed("skypilot-org/v6/do/vms.csv"));
    // Cudo quotes its Count ('1.0'); the rest reads as usual.
    SkyPilotGpuInfo cudo = parsed("skypilot-org/v8/cudo/vms.first36rows.csv");
    assertEquals(new SkyPilotGpuInfo("A40", 49152, 49152), cudo);
    assertEquals(48, cudo.perGpuGiB(1).getAsDouble());
  }

  @Test
  void states_nothing_for_bare_names_empty_cells_and_broken_text() throws IOException {
    // Azure writes a bare card name ("V100").
    String azure = firstCell("anycloud-sh/azure/vms.gpu.csv");
    assertEquals("V100", azure);
    assertEquals(Optional.empty(), SkyPilotGpuInfo.parse(azure));
    assertEquals(Optional.empty(), SkyPilotGpuInfo.parse(""));
    assertEquals(Optional.empty(), SkyPilotGpuInfo.parse("{'Gpus': [{'Name': 'A10'"));
    assertEquals(Optional.empty(), SkyPilotGpuInfo.parse("{'Gpus': nothing}"));
  }
}
