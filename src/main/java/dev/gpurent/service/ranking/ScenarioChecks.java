package dev.gpurent.service.ranking;

import dev.gpurent.alert.AlertRules;
import dev.gpurent.alert.WebhookHosts;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.ModelCatalog;
import dev.gpurent.config.PlainValues;
import dev.gpurent.cost.FilterNames;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.service.Failures;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads scenarios (one-off, or a live registration with its alert rules) and checks them against
 * the current book: a currency the FX rates cannot reach, or a filter naming a vendor, region,
 * country, continent or maker nobody knows, is refused as bad input naming the field, never ranked
 * as "no vendor". A refusal fails the message 400 with every bad field. Used on the
 * RankingVerticle's event loop only.
 */
final class ScenarioChecks {

  /** The registration fields other parts of gpurent read (the dashboard's language, alert rules): kept in the stored body, not a scenario's. */
  static final List<String> NOT_SCENARIO = List.of("lang", "alerts");

  private final GpuCatalog catalog;
  private final Set<String> makers;
  private final int maxWorkloads;
  private ScenarioReader reader;
  private WebhookHosts webhookHosts = WebhookHosts.ofThisMachine(Set.of());
  /** The names a filter may use, and the book they were read from (read again for each new book). */
  private FilterNames names;
  private QuoteBook namesOf;

  ScenarioChecks(GpuCatalog catalog, int maxWorkloads) {
    this.catalog = catalog;
    this.makers = catalog.makers();
    this.maxWorkloads = maxWorkloads;
    this.reader = new ScenarioReader(catalog, maxWorkloads);
  }

  void models(ModelCatalog models) {
    this.reader = new ScenarioReader(catalog, models, maxWorkloads);
  }

  void webhookHosts(WebhookHosts hosts) {
    this.webhookHosts = hosts;
  }

  /** The scenario of a stored or shared registration body; throws InvalidInputException when it no longer reads. */
  Scenario read(JsonObject registration) {
    return reader.read(PlainValues.of(scenarioPart(registration)));
  }

  /** The body as the scenario reader takes it: without the fields that are not the scenario's. */
  static JsonObject scenarioPart(JsonObject body) {
    JsonObject s = body.copy();
    NOT_SCENARIO.forEach(s::remove);
    return s;
  }

  /** Reads a scenario; on bad input fails the message 400 with every bad field and returns null. */
  Scenario parse(Message<?> msg, Object raw) {
    try {
      return reader.read(PlainValues.of(raw));
    } catch (InvalidInputException e) {
      Failures.invalid(msg, e.problems());
      return null;
    }
  }

  /**
   * Reads a registration: the scenario, and its alert rules and language ({@code alerts},
   * {@code lang}: the AlertVerticle's, left out of the scenario); on bad input fails the message
   * 400 with every bad field of both and returns null.
   */
  Scenario parseRegistration(Message<?> msg, JsonObject body) {
    List<InvalidInputException.Problem> problems = new ArrayList<>();
    Scenario s = null;
    try {
      s = read(body);
    } catch (InvalidInputException e) {
      problems.addAll(e.problems());
    }
    try {
      AlertRules.read(PlainValues.map(body), webhookHosts);
    } catch (InvalidInputException e) {
      problems.addAll(e.problems());
    }
    if (problems.isEmpty()) return s;
    Failures.invalid(msg, problems);
    return null;
  }

  /** Whether {@code s} reads against {@code book}: its currency reachable, every name its filters use known; else fails the message. */
  boolean known(Message<?> msg, Scenario s, QuoteBook book) {
    return knownCurrency(msg, s, book) && knownFilterNames(msg, s, book);
  }

  private static boolean knownCurrency(Message<?> msg, Scenario s, QuoteBook book) {
    var fx = book.fx();
    if (fx.currencies().contains(s.currency()) || fx.base().equals(s.currency())) return true;
    Failures.invalid(msg, List.of(new InvalidInputException.Problem("currency", "no exchange rate for " + s.currency()
        + "; known: " + String.join(", ", new TreeSet<>(fx.currencies())))));
    return false;
  }

  private boolean knownFilterNames(Message<?> msg, Scenario s, QuoteBook book) {
    if (namesOf != book) {
      names = FilterNames.of(book, makers);
      namesOf = book;
    }
    List<InvalidInputException.Problem> bad = names.problems(s.constraints());
    if (bad.isEmpty()) return true;
    Failures.invalid(msg, bad);
    return false;
  }
}
