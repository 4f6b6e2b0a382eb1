package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gpurent.Main;
import dev.gpurent.quotesheet.Sheets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

/**
 * What the README says, the command line does: every {@code $ ./gpurent ...} line in a fenced
 * block of README.md is run in-process (Main.run), the lines after it up to the next {@code $} or
 * the block's end being what it is documented to print. Runs without network, on a root of its own
 * per example (config copied, only the guide's reference sheet as a vendor, plus the files the
 * README's examples name: {@code acme-quote.xlsx}, a filled quote sheet, and {@code bad.xlsx}, one
 * with two bad cells) or on {@code target/sample-root} as {@code bench/sample-root.sh} builds it.
 *
 * <p>How an example is read: no {@code --root} given, the example's own root is added;
 * {@code target/sample-root} is the sample root; {@code > FILE} after quote-sheet template is its
 * {@code -o FILE}. How its output is held: the documented lines must appear, in order and each
 * whole, in what the command printed (its root's path taken out), where a line {@code ...} stands
 * for any lines, a {@code ...} inside a line for any text, and an instant such as
 * {@code 2026-12-01T17:05:41Z} for any instant to the second. An example whose every line is a
 * {@code gpurent: } message is a refusal: its lines are looked for on stderr and it must exit 2;
 * every other example must exit 0.
 */
class ReadmeExamplesTest {

  static final Path README = Path.of("README.md");
  static final String SAMPLE_ROOT = "target/sample-root";
  static final Pattern INSTANT = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
  /** Options every command that has them shares (SharedOptions), documented once below the command table. */
  static final Set<String> SHARED = Set.of("--root", "--adapters", "--offline", "--verbose", "--lang");

  static Path sampleRoot;
  static List<String> readme;

  /** One example: where it is, the command as typed, and the output documented under it. */
  record Example(int line, String command, List<String> output) {
    boolean refusal() {
      return !output.isEmpty() && output.stream().allMatch(l -> l.startsWith("gpurent: "));
    }

    @Override
    public String toString() {
      return "README.md:" + line + ": $ " + command;
    }
  }

  @BeforeAll
  static void readTheReadmeAndBuildTheSampleRoot() throws Exception {
    readme = Files.readAllLines(README);
    sampleRoot = SampleRootTest.build();
  }

  /** Every {@code $ ...gpurent ...} line in a fenced block, with the lines under it. */
  static List<Example> examples(List<String> lines) {
    List<Example> out = new ArrayList<>();
    boolean fenced = false;
    Integer at = null;
    String command = null;
    List<String> output = new ArrayList<>();
    for (int i = 0; i <= lines.size(); i++) {
      String l = i < lines.size() ? lines.get(i) : "```";
      boolean fence = l.startsWith("```");
      boolean prompt = fenced && l.startsWith("$ ");
      if (command != null && (fence || prompt)) {
        while (!output.isEmpty() && output.get(output.size() - 1).isBlank()) output.remove(output.size() - 1);
        out.add(new Example(at, command, List.copyOf(output)));
        command = null;
      }
      if (fence) {
        fenced = !fenced;
      } else if (prompt) {
        output.clear();
        if (l.contains("./gpurent ")) {
          at = i + 1;
          command = l.substring(2);
        }
      } else if (command != null) {
        output.add(l);
      }
    }
    return out;
  }

  @TestFactory
  Stream<DynamicTest> every_example_prints_what_the_readme_shows() {
    return examples(readme).stream().map(e -> DynamicTest.dynamicTest(e.toString(), () -> check(e)));
  }

  @Test
  void the_examples_show_every_command_that_needs_no_network() {
    Set<String> shown = examples(readme).stream().map(e -> words(typed(e.command())).get(0)).collect(Collectors.toCollection(TreeSet::new));
    assertTrue(shown.containsAll(List.of("rank", "quotes", "vendors", "sizing", "advise", "quote-sheet")), "examples of " + shown);
    assertTrue(examples(readme).stream().anyMatch(Example::refusal), "a refusal among the examples");
  }

  @Test
  void reads_an_example_and_its_output_up_to_the_next_prompt() {
    List<Example> e = examples(List.of("text", "```", "$ ./gpurent sizing --params 7", "VRAM need: x", "", "$ curl -s x", "{}",
        "$ ./gpurent quotes --vendor nope", "gpurent: --vendor: unknown", "```", "$ ./gpurent outside a block"));
    assertEquals(List.of(new Example(3, "./gpurent sizing --params 7", List.of("VRAM need: x")),
        new Example(8, "./gpurent quotes --vendor nope", List.of("gpurent: --vendor: unknown"))), e);
    assertTrue(e.get(1).refusal());
    assertTrue(shows(List.of("a", "...", "c ... e"), List.of("x", "a", "b", "b", "c d e", "y")));
    assertFalse(shows(List.of("a", "c"), List.of("a", "b", "c")), "without a ... line the lines follow each other");
    assertTrue(shows(List.of("quotes of 2026-12-01T17:05:41Z"), List.of("quotes of 2027-01-02T03:04:05Z")));
    assertFalse(shows(List.of("quotes of 2026-12-01T17:05:41Z"), List.of("quotes of 2027-01-02T03:04:05.123456789Z")),
        "an instant is shown to the second");
  }

  /**
   * The command table lists, per command, every option the command has (the shared --root,
   * --adapters and --offline in the paragraph under it), and no option the command lacks.
   */
  @Test
  void the_command_table_lists_every_option_of_every_command() {
    Map<String, String> rows = new TreeMap<>();
    for (String l : readme) {
      if (l.startsWith("| `./gpurent ")) {
        String synopsis = l.substring(l.indexOf('`') + 1, l.indexOf('`', l.indexOf('`') + 1));
        rows.put(commandPath(synopsis), synopsis);
      }
    }
    Map<String, CommandLine> leaves = new TreeMap<>();
    leaves(new CommandLine(new Main()), leaves);
    assertEquals(leaves.keySet(), rows.keySet(), "a row for every command");
    String prose = String.join("\n", readme);
    for (String shared : SHARED) assertTrue(prose.contains("`" + shared), shared + " is documented");
    for (Map.Entry<String, CommandLine> e : leaves.entrySet()) {
      String synopsis = rows.get(e.getKey());
      Set<String> listed = new TreeSet<>();
      Matcher m = Pattern.compile("(?<![\\w-])(--[a-z][a-z-]*|-[a-zA-Z])(?![\\w-])").matcher(synopsis);
      while (m.find()) listed.add(m.group(1));
      Set<String> has = new TreeSet<>();
      for (OptionSpec o : e.getValue().getCommandSpec().options()) {
        if (o.usageHelp() || o.versionHelp()) continue;
        has.addAll(List.of(o.names()));
        if (SHARED.contains(o.longestName())) continue;
        assertTrue(List.of(o.names()).stream().anyMatch(listed::contains), e.getKey() + ": " + o.longestName() + " is not in " + synopsis);
      }
      for (String name : listed) assertTrue(has.contains(name), e.getKey() + " has no option " + name + " (README: " + synopsis + ")");
    }
  }

  /** "./gpurent quote-sheet template [--lang zh]" -> "quote-sheet template": the words that name subcommands. */
  static String commandPath(String synopsis) {
    CommandLine cl = new CommandLine(new Main());
    List<String> path = new ArrayList<>();
    for (String w : synopsis.substring("./gpurent ".length()).split(" ")) {
      CommandLine sub = cl.getSubcommands().get(w);
      if (sub == null) break;
      path.add(w);
      cl = sub;
    }
    return String.join(" ", path);
  }

  static void leaves(CommandLine cl, Map<String, CommandLine> out) {
    for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
      if (e.getValue().getSubcommands().isEmpty()) out.put(e.getValue().getCommandSpec().qualifiedName(" ").substring("gpurent ".length()), e.getValue());
      else leaves(e.getValue(), out);
    }
  }

  void check(Example e) throws IOException {
    Path root = exampleRoot();
    List<String> args = new ArrayList<>();
    Path redirect = null;
    List<String> typed = words(typed(e.command()));
    for (int i = 0; i < typed.size(); i++) {
      String w = typed.get(i);
      if (w.equals(">")) {
        assertEquals(List.of("quote-sheet", "template"), typed.subList(0, 2), e + ": only quote-sheet template's output is redirected");
        redirect = root.resolve(typed.get(++i));
        args.addAll(List.of("-o", redirect.toString()));
        continue;
      }
      w = w.replace(SAMPLE_ROOT, sampleRoot.toString());
      if (!w.startsWith("-") && Files.exists(root.resolve(w))) w = root.resolve(w).toString();
      args.add(w);
    }
    if (args.stream().noneMatch(a -> a.equals("--root") || a.startsWith("--root="))) args.add("--root=" + root);
    CliTest.Result r = CliTest.run(args.toArray(String[]::new));
    String printed = (e.refusal() ? r.err() : r.out()).replace(root + "/", "").replace(sampleRoot + "/", "");
    assertEquals(e.refusal() ? ExitCodes.BAD_INPUT : 0, r.status(), e + "\nstdout:\n" + r.out() + "\nstderr:\n" + r.err());
    if (redirect != null) {
      byte[] file = Files.readAllBytes(redirect);
      assertTrue(file.length > 1000 && file[0] == 'P' && file[1] == 'K', e + ": " + redirect + " is no workbook");
    }
    if (!shows(e.output(), printed.lines().toList())) {
      fail(e + "\nthe README shows:\n" + String.join("\n", e.output()) + "\n\nit printed:\n" + printed);
    }
  }

  /** The command after "./gpurent ", past a "bench/sample-root.sh target/sample-root && " that builds the sample root. */
  static String typed(String command) {
    String c = command;
    if (c.startsWith("bench/sample-root.sh " + SAMPLE_ROOT + " && ")) c = c.substring(c.indexOf("&& ") + 3);
    assertTrue(c.startsWith("./gpurent "), "an example this test does not know how to run: " + command);
    return c.substring("./gpurent ".length());
  }

  /** The shell's words: split at blanks, with '...' and "..." kept together. */
  static List<String> words(String s) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("\"([^\"]*)\"|'([^']*)'|(\\S+)").matcher(s);
    while (m.find()) out.add(m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3));
    return out;
  }

  /** Whether the documented lines appear in order in the printed ones (see the class comment for "..." and instants). */
  static boolean shows(List<String> documented, List<String> printed) {
    List<Pattern> doc = documented.stream().map(ReadmeExamplesTest::line).toList();
    for (int start = 0; start <= printed.size(); start++) if (shows(doc, 0, printed, start)) return true;
    return false;
  }

  private static boolean shows(List<Pattern> doc, int d, List<String> printed, int p) {
    if (d == doc.size()) return true;
    if (doc.get(d) == null) {
      for (int k = p; k <= printed.size(); k++) if (shows(doc, d + 1, printed, k)) return true;
      return false;
    }
    return p < printed.size() && doc.get(d).matcher(printed.get(p)).matches() && shows(doc, d + 1, printed, p + 1);
  }

  /** A documented line as a pattern; null for a "..." line. */
  static Pattern line(String documented) {
    if (documented.strip().equals("...")) return null;
    StringBuilder re = new StringBuilder();
    String[] parts = documented.split("\\.\\.\\.", -1);
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) re.append(".*");
      Matcher m = INSTANT.matcher(parts[i]);
      int last = 0;
      while (m.find()) {
        re.append(Pattern.quote(parts[i].substring(last, m.start()))).append(INSTANT.pattern());
        last = m.end();
      }
      re.append(Pattern.quote(parts[i].substring(last)));
    }
    return Pattern.compile(re.toString());
  }

  /** A guide-only root with the files the README's quote-sheet examples name. */
  static Path exampleRoot() throws IOException {
    Path root = Path.of(CliTest.guideOnly());
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    Files.write(root.resolve("acme-quote.xlsx"), Sheets.guideQuote(dev.gpurent.text.Lang.ZH, today));
    Files.write(root.resolve("bad.xlsx"), Sheets.edit(Sheets.guideQuote(dev.gpurent.text.Lang.EN, today), wb -> {
      Sheets.cell(wb.getSheetAt(0), 2, "I").setCellValue("-1500");
      Sheets.cell(wb.getSheetAt(0), 3, "A").setCellValue("RTX 9999");
    }));
    return root;
  }
}
