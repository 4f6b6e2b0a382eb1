package dev.gpurent.cost;

import dev.gpurent.quote.PriceUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * What a per-token API would be billed for one inference workload: the model it serves, by every
 * name APIs sell it under, and its input and output tokens a month. Pure and stable: the API
 * comparison (issue 31, item 4) reads it.
 *
 * <p>Tokens a month = requests a second x 3600 x hours a month x tokens a request, the hours being
 * the workload's {@link Inference#hoursPerMonth()}: {@link PriceUnit#HOURS_PER_MONTH} (730) for a
 * workload served round the clock, as the rented cards are billed.
 *
 * @param workload             the workload's name
 * @param modelId              the catalog id ({@code Llama-3.1-70B})
 * @param hfId                 the publisher's Hugging Face id ({@code meta-llama/Llama-3.1-70B})
 * @param names                every name the model answers to in the catalog (id, Hugging Face id,
 *                             instruct repositories, ollama tags); {@code ModelCatalog.find} matches
 *                             an API's spelling to the model
 * @param inputTokensPerMonth  prompt tokens a month
 * @param outputTokensPerMonth generated tokens a month
 * @param hoursPerMonth        hours a month the load runs
 */
public record TokenDemand(String workload, String modelId, String hfId, List<String> names, double inputTokensPerMonth,
                          double outputTokensPerMonth, double hoursPerMonth) {

  public TokenDemand {
    names = List.copyOf(names);
  }

  /** The workload's demand, when it is an inference that names its model and states its load in tokens. */
  public static Optional<TokenDemand> of(Workload w) {
    if (!(w instanceof Inference i) || i.model().isEmpty() || !i.model().get().hasTokenLoad()) return Optional.empty();
    ModelLoad m = i.model().get();
    double requests = m.requestsPerSecond() * 3600 * i.hoursPerMonth();
    LinkedHashSet<String> names = new LinkedHashSet<>();
    names.add(m.model().id());
    names.add(m.model().hf());
    names.addAll(m.model().aliases());
    return Optional.of(new TokenDemand(i.name(), m.model().id(), m.model().hf(), new ArrayList<>(names),
        requests * m.inputTokens(), requests * m.outputTokens(), i.hoursPerMonth()));
  }

  /** The demand of every workload of a scenario that has one, in the scenario's order. */
  public static List<TokenDemand> of(Scenario s) {
    return s.workloads().stream().map(TokenDemand::of).flatMap(Optional::stream).toList();
  }
}
