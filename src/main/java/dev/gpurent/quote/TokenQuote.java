package dev.gpurent.quote;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One model sold per token by an inference API: its input and output prices per million tokens,
 * normalised from whatever unit the source wrote, and where the figures come from.
 *
 * @param provider         the API that sells it ("deepinfra")
 * @param model            the provider's own model id, as written ("meta-llama/Meta-Llama-3.1-70B-Instruct")
 * @param inputPerMillion  price of a million prompt tokens
 * @param outputPerMillion price of a million generated tokens (0 for embeddings and rerankers, which generate none)
 * @param currency         ISO code of both prices
 * @param contextTokens    the longest context the provider states, or null when the source states none
 * @param task             the provider's task or modality ("text-generation", "embeddings"), or null when not stated
 * @param note             what the row adds that is not priced here (a cache-read price), or null
 * @param source           the file and line the prices were read from ("deepinfra.csv line 12")
 * @param asOf             when the source collected the row
 */
public record TokenQuote(String provider, String model, BigDecimal inputPerMillion, BigDecimal outputPerMillion,
                         String currency, Integer contextTokens, String task, String note, String source, Instant asOf) {

  private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

  public TokenQuote {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(source, "source");
    if (inputPerMillion.signum() < 0 || outputPerMillion.signum() < 0) {
      throw new IllegalArgumentException("a price per token cannot be negative: " + model);
    }
    inputPerMillion = inputPerMillion.stripTrailingZeros();
    outputPerMillion = outputPerMillion.stripTrailingZeros();
  }

  /** The cost of {@code inputTokens} prompt and {@code outputTokens} generated tokens, exact, in {@link #currency}. */
  public Money cost(long inputTokens, long outputTokens) {
    BigDecimal in = inputPerMillion.multiply(BigDecimal.valueOf(inputTokens));
    BigDecimal out = outputPerMillion.multiply(BigDecimal.valueOf(outputTokens));
    return new Money(in.add(out).divide(MILLION), currency);
  }

  /** Whether the provider states a context at least {@code tokens} long (false when it states none). */
  public boolean carries(long tokens) {
    return contextTokens != null && contextTokens >= tokens;
  }

  /** JSON-ready, prices as plain decimal text so that no digit is lost. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("provider", provider);
    m.put("model", model);
    m.put("inputPerMillion", inputPerMillion.toPlainString());
    m.put("outputPerMillion", outputPerMillion.toPlainString());
    m.put("currency", currency);
    m.put("contextTokens", contextTokens);
    m.put("task", task);
    m.put("note", note);
    m.put("source", source);
    m.put("asOf", asOf == null ? null : asOf.toString());
    return m;
  }
}
