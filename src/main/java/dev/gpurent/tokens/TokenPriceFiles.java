package dev.gpurent.tokens;

import dev.gpurent.quote.TokenPriceBook;
import dev.gpurent.quote.TokenQuote;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The per-token price book of the config's {@code tokenPrices.files}: OpenComputePrices per-token
 * files (openrouter.csv, deepinfra.csv, together.csv, novita.csv), paths relative to the root.
 * None by default: the feed's live files are published as GitHub release assets, whose address is
 * not recorded here, so a root names the files it has (bench/sample-root.sh names the recorded
 * ones). Blocking file reads: call it off the event loop.
 *
 * @param files the files, as written in the config
 */
public record TokenPriceFiles(List<String> files) {

  public TokenPriceFiles {
    files = List.copyOf(files);
  }

  /** The {@code tokenPrices} section of the config (null or absent: no files); an unknown key or a non-list fails, naming it. */
  public static TokenPriceFiles from(Object section) {
    if (section == null) return new TokenPriceFiles(List.of());
    if (!(section instanceof Map<?, ?> m)) throw new IllegalArgumentException("tokenPrices: must be a map with 'files'");
    for (Object k : m.keySet()) {
      if (!"files".equals(k)) throw new IllegalArgumentException("tokenPrices." + k + ": unknown key; known: files");
    }
    Object f = m.get("files");
    if (f == null) return new TokenPriceFiles(List.of());
    if (!(f instanceof List<?> list)) throw new IllegalArgumentException("tokenPrices.files: must be a list of file paths");
    List<String> out = new ArrayList<>();
    for (Object o : list) {
      if (!(o instanceof String s) || s.isBlank()) throw new IllegalArgumentException("tokenPrices.files: '" + o + "' is no file path");
      out.add(s);
    }
    return new TokenPriceFiles(out);
  }

  /**
   * Every file read and its quotes merged; a file that cannot be read (missing, not of the format)
   * is one refused line naming it, and the other files still load.
   */
  public TokenPriceBook load(Path root, Instant readAt) {
    List<TokenQuote> quotes = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    List<String> sources = new ArrayList<>();
    for (String f : files) {
      Path p = root.resolve(f);
      String name = p.getFileName().toString();
      try (Reader r = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
        TokenPriceBook one = OpenComputeTokenFormat.parse(r, name, readAt);
        quotes.addAll(one.quotes());
        refused.addAll(one.refused());
        sources.add(name);
      } catch (IOException | IllegalArgumentException | java.io.UncheckedIOException e) {
        refused.add(name + ": not read (" + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()) + ")");
      }
    }
    return new TokenPriceBook(quotes, refused, sources);
  }
}
