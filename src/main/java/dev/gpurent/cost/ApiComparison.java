package dev.gpurent.cost;

import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.TokenPriceBook;
import dev.gpurent.quote.TokenQuote;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Rent, or call an API? For one inference workload whose model an inference API sells per token:
 * what each API would charge a month for the workload's tokens (input and output price per million
 * x tokens a month, converted to the scenario's currency), the cheapest API that can carry it, and
 * the break-even volume against renting: the output tokens a day (the workload's input/output mix
 * kept) at which that API costs what the workload's GPUs cost in #1's plan. Above it renting wins,
 * below it the API is cheaper. The rented side is held at #1's cards: a volume past what they
 * serve would need more cards (re-rank at that volume to see).
 *
 * <p>An API sells the model when its model id names the same model once the publisher, a leading
 * "Meta-" and trailing "Instruct", "Turbo", "Chat", "HF" or "FP8" are set aside
 * ({@code meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo} sells {@code Llama-3.1-70B}); fine-tunes
 * named after their base ({@code Hermes-3-Llama-3.1-70B}) do not. An API whose stated context is
 * shorter than the workload's, or that states none, cannot be shown to carry it: it is listed with
 * that reason and never the cheapest. Per-token APIs' rate limits are not in the recorded feed.
 *
 * @param workload   the workload's name
 * @param model      the model it serves, as the catalog names it
 * @param load       its tokens a month
 * @param options    each API selling the model, cheapest a month first (those that cannot carry it last)
 * @param rented     what the workload's GPUs cost a month in #1's plan, or empty when nothing is ranked
 * @param rentedAt   #1's vendor, or null
 * @param verdict    the sentence: the break-even, or why there is none
 */
public record ApiComparison(String workload, String model, TokenLoad load, List<Option> options, Optional<Money> rented,
                            String rentedAt, Message verdict) {

  /**
   * An inference workload's tokens, as a per-token API bills them.
   *
   * @param inputPerMonth  prompt tokens a month
   * @param outputPerMonth generated tokens a month
   * @param contextTokens  the longest context a request needs (0: not stated)
   */
  public record TokenLoad(long inputPerMonth, long outputPerMonth, long contextTokens) {}

  /**
   * One API's price for the workload.
   *
   * @param monthly what the workload's tokens cost there a month, in the scenario's currency, exact (shown to the cent)
   * @param fx      the conversion used ("1 USD = 7.24 CNY (ECB ... 2025-05-09)"), "" when none
   * @param limit   why it cannot carry the workload (its context); {@link Words#EMPTY} when it can
   */
  public record Option(TokenQuote quote, Money monthly, String fx, Message limit) {

    public boolean carries() {
      return Words.isEmpty(limit);
    }

    public Map<String, Object> toMap() {
      Map<String, Object> m = quote.toMap();
      m.put("monthly", monthly.cents().plain());
      m.put("fx", fx);
      m.put("carries", carries());
      m.put("limit", Localizer.neutral(limit));
      return m;
    }
  }

  /** Days a month, as the bills count hours: 730 / 24. */
  static final BigDecimal DAYS_PER_MONTH = BigDecimal.valueOf(BillingPlanner.HOURS_PER_MONTH).divide(BigDecimal.valueOf(24), MathContext.DECIMAL64);

  private static final Pattern SUFFIX = Pattern.compile("(instruct|turbo|chat|hf|fp8)+$");

  /** The cheapest API that can carry the workload, if any. */
  public Optional<Option> cheapest() {
    return options.stream().filter(Option::carries).findFirst();
  }

  /**
   * The output tokens a day at which the cheapest API costs what renting does, the input/output mix
   * kept; empty when either side is missing or the API charges nothing for output.
   */
  public Optional<BigDecimal> breakEvenOutputPerDay() {
    Optional<Option> api = cheapest();
    if (api.isEmpty() || rented.isEmpty() || api.get().monthly().amount().signum() == 0 || load.outputPerMonth() == 0) {
      return Optional.empty();
    }
    BigDecimal exactApi = api.get().monthly().amount();
    BigDecimal scale = rented.get().amount().divide(exactApi, MathContext.DECIMAL64);
    return Optional.of(BigDecimal.valueOf(load.outputPerMonth()).multiply(scale).divide(DAYS_PER_MONTH, 0, RoundingMode.HALF_UP));
  }

  /**
   * The comparison of every inference workload of {@code s} that states its model and its load in
   * tokens ({@link TokenDemand}) and whose model an API of the book's per-token prices sells, in the
   * scenario's order, against the workload's GPUs at #1 ({@code bestVendor}, null when nothing is
   * ranked; {@code placements} its plan's, one per workload).
   */
  static List<ApiComparison> of(Scenario s, String bestVendor, List<Placement> placements, QuoteBook book) {
    if (book.tokenPrices().quotes().isEmpty()) return List.of();
    List<ApiComparison> out = new ArrayList<>();
    for (TokenDemand d : TokenDemand.of(s)) {
      Money rented = null;
      if (bestVendor != null) {
        for (Placement p : placements) {
          if (p.workload().name().equals(d.workload())) rented = rented == null ? p.perMonth() : rented.plus(p.perMonth());
        }
      }
      long context = s.workloads().stream().filter(w -> w.name().equals(d.workload()) && w instanceof Inference)
          .map(w -> ((Inference) w).model()).flatMap(Optional::stream).mapToLong(ModelLoad::contextTokens).findFirst().orElse(0);
      TokenLoad load = new TokenLoad(Math.round(d.inputTokensPerMonth()), Math.round(d.outputTokensPerMonth()), context);
      of(d.workload(), d.modelId(), d.names(), load, book.tokenPrices(), book.fx(), s.currency(), rented,
          rented == null ? null : bestVendor).ifPresent(out::add);
    }
    return out;
  }

  /**
   * The comparison for one workload, or empty when no API of {@code book} sells its model.
   *
   * @param names    every name the model answers to (its catalog id, Hugging Face id, aliases)
   * @param rented   the workload's GPUs' monthly cost in #1's plan, in {@code currency}; null when nothing is ranked
   * @param rentedAt #1's vendor, or null
   */
  public static Optional<ApiComparison> of(String workload, String model, List<String> names, TokenLoad load, TokenPriceBook book,
                                           FxRates fx, String currency, Money rented, String rentedAt) {
    java.util.Set<String> keys = new java.util.HashSet<>();
    for (String n : names) keys.add(modelKey(n));
    keys.add(modelKey(model));
    List<Option> options = new ArrayList<>();
    Map<String, Option> perProvider = new LinkedHashMap<>();
    for (TokenQuote q : book.quotes()) {
      if (!keys.contains(modelKey(q.model())) || !generatesText(q)) continue;
      Option o = option(q, load, fx, currency);
      if (o == null) continue;
      // One line per API: its cheapest way to serve the model (DeepInfra sells Llama 3.1 70B plain and Turbo).
      perProvider.merge(q.provider(), o, (a, b) -> ORDER.compare(a, b) <= 0 ? a : b);
    }
    if (perProvider.isEmpty()) return Optional.empty();
    options.addAll(perProvider.values());
    options.sort(ORDER);
    ApiComparison c = new ApiComparison(workload, model, load, options, Optional.ofNullable(rented), rentedAt, Words.EMPTY);
    return Optional.of(new ApiComparison(workload, model, load, options, c.rented, rentedAt, c.verdictText()));
  }

  /** Those that carry the workload first, then cheapest a month, then provider and model. */
  private static final Comparator<Option> ORDER = Comparator.comparing((Option o) -> !o.carries())
      .thenComparing(o -> o.monthly().amount()).thenComparing(o -> o.quote().provider()).thenComparing(o -> o.quote().model());

  private static Option option(TokenQuote q, TokenLoad load, FxRates fx, String currency) {
    FxRates.Conversion conv;
    try {
      conv = fx.convert(q.cost(load.inputPerMonth(), load.outputPerMonth()), currency);
    } catch (IllegalArgumentException e) {
      return null;  // no rate to the scenario's currency: the ranking itself says so for its own lines
    }
    Message limit = Words.EMPTY;
    if (load.contextTokens() > 0 && q.contextTokens() == null) {
      limit = Words.of("api.limit.contextUnstated", "provider", q.provider(), "context", load.contextTokens());
    } else if (load.contextTokens() > 0 && !q.carries(load.contextTokens())) {
      limit = Words.of("api.limit.context", "provider", q.provider(), "limit", q.contextTokens(), "context", load.contextTokens());
    }
    return new Option(q, conv.money(), conv.isIdentity() ? "" : conv.text(q.currency()), limit);
  }

  private Message verdictText() {
    Optional<Option> api = cheapest();
    if (api.isEmpty()) return Words.of("api.none", "model", model);
    Option a = api.get();
    if (rented.isEmpty()) return Words.of("api.unranked", "provider", a.quote().provider(), "monthly", a.monthly().cents());
    Optional<BigDecimal> perDay = breakEvenOutputPerDay();
    if (perDay.isEmpty()) return Words.of("api.free", "provider", a.quote().provider());
    BigDecimal millions = perDay.get().divide(BigDecimal.valueOf(1_000_000), 1, RoundingMode.HALF_UP);
    boolean apiCheaper = a.monthly().amount().compareTo(rented.get().amount()) < 0;
    return Words.of(apiCheaper ? "api.cheaper" : "api.renting", "provider", a.quote().provider(), "monthly", a.monthly().cents(),
        "rented", rented.get().cents(), "vendor", rentedAt, "millions", millions.toPlainString());
  }

  /** A model name as an API and the catalog both spell it: publisher, a leading "meta" and serving suffixes set aside. */
  static String modelKey(String name) {
    String n = name.substring(name.lastIndexOf('/') + 1);
    String k = TokenPriceBook.squash(n);
    if (k.startsWith("metallama")) k = k.substring(4);
    return SUFFIX.matcher(k).replaceAll("");
  }

  /** A model that answers in text: not an embedding, reranker or video model. */
  private static boolean generatesText(TokenQuote q) {
    String t = q.task() == null ? "" : q.task().toLowerCase(Locale.ROOT);
    return t.isEmpty() || t.equals("text-generation") || t.endsWith("->text");
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("workload", workload);
    m.put("model", model);
    m.put("inputTokensPerMonth", load.inputPerMonth());
    m.put("outputTokensPerMonth", load.outputPerMonth());
    m.put("contextTokens", load.contextTokens() == 0 ? null : load.contextTokens());
    m.put("options", options.stream().map(Option::toMap).toList());
    m.put("cheapest", cheapest().map(o -> o.quote().provider()).orElse(null));
    m.put("rented", rented.map(Money::plain).orElse(null));
    m.put("rentedAt", rentedAt);
    m.put("breakEvenOutputTokensPerDay", breakEvenOutputPerDay().map(BigDecimal::toPlainString).orElse(null));
    m.put("verdict", Localizer.neutral(verdict));
    return m;
  }
}
