package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a newcomer sees first (issue 33): the shipped root, every vendor file in it, with no
 * vendor reachable (--offline and nothing fetched before: what a machine without network gives).
 * The guide's answer reads clean, with one line, not one per vendor, about the vendors that could
 * not be read; --verbose gives each its own line.
 */
class FirstRunTest {

  static Path root;
  static int vendorFiles;

  @BeforeAll
  static void theShippedRootWithNothingFetchedYet() throws IOException {
    root = Path.of(CliTest.guideOnly());
    try (Stream<Path> files = Files.list(Path.of("adapters"))) {
      for (Path f : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
        Files.copy(f, root.resolve("adapters").resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
    try (Stream<Path> files = Files.list(root.resolve("adapters"))) {
      vendorFiles = (int) files.count();
    }
  }

  static CliTest.Result rank(String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("rank", "--root=" + root, "--offline", "--include-reference",
        Path.of("config/scenarios/guide-template.yaml").toAbsolutePath().toString()));
    args.addAll(List.of(more));
    return CliTest.run(args.toArray(String[]::new));
  }

  @Test
  void the_guide_answer_with_one_line_for_every_vendor_that_could_not_be_read() {
    CliTest.Result r = rank();
    assertEquals(0, r.status(), r.err());
    List<String> out = r.out().lines().toList();
    assertTrue(out.stream().anyMatch(l -> l.startsWith("#1 guide-reference (Guide reference prices (not a real vendor)): 5000.00 CNY a month")),
        r.out());
    List<String> noQuotes = out.stream().filter(l -> l.contains("have no quotes") || l.contains("no quotes yet") || l.contains("offline")).toList();
    assertEquals(1, noQuotes.size(), r.out());
    // every file but the guide's sheet and the disabled ones is named on that line
    assertTrue(noQuotes.get(0).matches("  \\d+ vendors have no quotes: their sources could not be read \\(--verbose for each reason\\): .*aws.*"),
        noQuotes.get(0));
    int named = noQuotes.get(0).substring(noQuotes.get(0).lastIndexOf("): ") + 3).split(", ").length;
    assertTrue(named > 20 && named < vendorFiles, named + " of " + vendorFiles);
    assertEquals(named, Integer.parseInt(noQuotes.get(0).trim().split(" ")[0]));
    // the text names them: the progress on stderr does not say it a second time (at most one line about them)
    assertEquals(List.of(), r.err().lines().filter(l -> l.contains("unavailable")).toList(), r.err());
    // the JSON does not name them in text: there the progress says it, on one line
    CliTest.Result json = rank("--json");
    assertEquals(List.of("gpurent: " + named + " vendors unavailable, no quotes (--verbose for each reason): "
        + noQuotes.get(0).substring(noQuotes.get(0).lastIndexOf("): ") + 3)),
        json.err().lines().filter(l -> l.contains("unavailable")).toList());
    for (String l : (r.out() + r.err()).lines().toList()) assertFalse(l.endsWith(" "), "a line ends with a blank: '" + l + "'");
    assertTrue(r.err().contains("gpurent: guide-reference: 12 quotes, fresh"), r.err());
  }

  @Test
  void verbose_gives_each_vendor_its_line_and_reason() {
    CliTest.Result r = rank("--verbose");
    assertEquals(0, r.status(), r.err());
    long perVendor = r.out().lines().filter(l -> l.endsWith(": offline, and no quotes were saved from an earlier fetch")).count();
    assertTrue(perVendor > 20, r.out());
    assertEquals(perVendor, r.err().lines().filter(l -> l.matches("gpurent: [a-z0-9-]+: unavailable \\(.*\\)")).count(), r.err());
  }

  @Test
  void a_workbook_path_in_a_missing_folder_is_bad_input_named_before_any_fetch() {
    CliTest.Result r = CliTest.run("rank", "--root=" + CliTest.guideOnly(), "--xlsx", "missing/dir/x.xlsx",
        Path.of("config/scenarios/guide-template.yaml").toAbsolutePath().toString());
    assertEquals(2, r.status(), r.err());
    assertEquals("gpurent: --xlsx: cannot write missing/dir/x.xlsx: the folder missing/dir does not exist", r.err().strip());
  }
}
