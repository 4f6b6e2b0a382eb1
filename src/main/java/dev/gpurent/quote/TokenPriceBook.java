package dev.gpurent.quote;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Every per-token quote read from the configured inference-API price files, and the rows that
 * could not be read, each as {@code "<file> line <n>: <reason>"}. Immutable; empty when no file is
 * configured.
 *
 * <p>Models are matched by their name without case or punctuation: {@code llama-3.1-70b} finds
 * {@code meta-llama/Meta-Llama-3.1-70B-Instruct} and {@code Llama 3.1 70B}.
 */
public record TokenPriceBook(List<TokenQuote> quotes, List<String> refused, List<String> sources) {

  public static final TokenPriceBook EMPTY = new TokenPriceBook(List.of(), List.of(), List.of());

  public TokenPriceBook {
    quotes = List.copyOf(quotes);
    refused = List.copyOf(refused);
    sources = List.copyOf(sources);
  }

  /** The quotes whose model name holds {@code model} (all when null or blank), cheapest output first, then input, provider, model. */
  public List<TokenQuote> find(String model) {
    String key = model == null ? "" : squash(model);
    List<TokenQuote> found = new ArrayList<>();
    for (TokenQuote q : quotes) if (squash(q.model()).contains(key)) found.add(q);
    found.sort(Comparator.comparing(TokenQuote::outputPerMillion).thenComparing(TokenQuote::inputPerMillion)
        .thenComparing(TokenQuote::provider).thenComparing(TokenQuote::model));
    return found;
  }

  /** A name lower-cased with everything but letters and digits dropped: "Llama 3.1 70B" and "llama-3.1-70b" are both "llama3170b". */
  public static String squash(String name) {
    StringBuilder sb = new StringBuilder(name.length());
    for (char c : name.toLowerCase(Locale.ROOT).toCharArray()) if (Character.isLetterOrDigit(c)) sb.append(c);
    return sb.toString();
  }
}
