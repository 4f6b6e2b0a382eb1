package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.quote.VendorTerms;
import io.vertx.core.json.Json;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Incremental re-ranking against the full ranking: random scenarios (as {@link ScanDifferentialTest}
 * makes them) each followed through a random sequence of books, one vendor change at a time
 * (prices up or down, offers added or removed, a vendor vanishing, appearing, going stale or
 * expired, new terms, the same payload fetched again), with FX changes and the book's clock
 * moving across the "prices dated" limit. After every step the live ranking encodes to exactly
 * the text of {@code CostModel.rank} on the same book, and an update that says "unchanged" is.
 */
class LiveRankingDifferentialTest {

  private static final long SEED = 20261216L;
  private static final int CASES = 400;
  private static final int STEPS = 12;

  private final CostModel model = new CostModel(CATALOG, Fixtures.RULES);

  @Test
  void every_update_gives_exactly_the_full_ranking() {
    Random r = new Random(SEED);
    int steps = 0, unchanged = 0, partial = 0, plans = 0;
    Map<String, Integer> kinds = new TreeMap<>();
    for (int n = 0; n < CASES; n++) {
      Scenario s = ScanDifferentialTest.scenario(r);
      World world = new World(ScanDifferentialTest.book(r));
      LiveRanking live = LiveRanking.of(model, s, world.book);
      assertEquals(encoded(model.rank(s, world.book)), encoded(live.ranking()), "case " + n + ": the first ranking");
      for (int step = 0; step < STEPS; step++) {
        String before = withoutTime(live.ranking());
        String kind = world.change(r);
        kinds.merge(kind, 1, Integer::sum);
        boolean changed = live.update(world.book);
        String where = "case " + n + " step " + step + " (" + kind + ", seed " + SEED + ")\n" + s;
        Ranking full = model.rank(s, world.book);
        assertEquals(encoded(full), encoded(live.ranking()), where);
        if (!changed) {
          assertEquals(before, withoutTime(live.ranking()), where + ": said unchanged");
          unchanged++;
        }
        if (live.recomputed().size() < world.book.vendors().size()) partial++;
        plans += full.plans().size();
        steps++;
      }
    }
    // the sequences reach the paths they are meant to test
    String reached = steps + " steps, " + unchanged + " unchanged, " + partial + " with vendors kept, " + plans + " plans; " + kinds;
    assertTrue(unchanged > 300, reached);
    assertTrue(partial > 2000, reached);
    assertTrue(plans > 4000, reached);
    assertTrue(kinds.size() >= 12, reached);
  }

  /**
   * Live scenarios that differ only in their data (name, storage, egress, load balancers) share each
   * vendor's scan through the model's memo, and every one of them still ranks exactly as a full
   * ranking of its own: a memo keyed too loosely would hand one the other's picks.
   */
  @Test
  void scenarios_that_scan_alike_share_their_scans_and_rank_as_alone() {
    Random r = new Random(SEED + 1);
    int shared = 0, compared = 0, placementsShared = 0, mixedShared = 0, uncarriedShared = 0;
    for (int n = 0; n < 60; n++) {
      Scenario base = ScanDifferentialTest.scenario(r);
      List<Scenario> kin = new ArrayList<>();
      kin.add(base);
      for (int k = 1; k < 4; k++) {
        kin.add(new Scenario("kin " + k, base.currency(), base.horizonMonths(), base.headroom(), base.workloads(),
            base.storedGb() + 100 * k, base.egressGbPerMonth() * k, base.compressionRatio(), base.loadBalancers() + k % 2,
            base.migration(), base.constraints()));
      }
      // a different horizon scans differently: it must not be handed its kin's picks
      kin.add(new Scenario("other horizon", base.currency(), base.horizonMonths() == 12 ? 24 : 12, base.headroom(), base.workloads(),
          base.storedGb(), base.egressGbPerMonth(), base.compressionRatio(), base.loadBalancers(), base.migration(), base.constraints()));
      World world = new World(ScanDifferentialTest.book(r));
      List<LiveRanking> lives = new ArrayList<>();
      for (Scenario s : kin) lives.add(LiveRanking.of(model, s, world.book));
      for (int step = 0; step <= 4; step++) {
        if (step > 0) {
          world.change(r);
          for (LiveRanking live : lives) live.update(world.book);
        }
        for (int k = 0; k < kin.size(); k++) {
          CostModel alone = new CostModel(CATALOG, Fixtures.RULES);
          assertEquals(encoded(alone.rank(kin.get(k), world.book)), encoded(lives.get(k).ranking()),
              "case " + n + " step " + step + " scenario " + k + "\n" + kin.get(k));
          compared++;
        }
        // a mixed plan's placements too (they are what it shares with its kin: its data lines are its own)
        MixedPlan mixed = lives.get(0).ranking().mixed().orElse(null);
        for (int k = 1; k < 4 && mixed != null; k++) {
          MixedPlan kinMixed = lives.get(k).ranking().mixed().orElseThrow();
          for (int w = 0; w < mixed.placements().size(); w++) {
            assertTrue(kinMixed.placements().get(w) == mixed.placements().get(w), "case " + n + " kin " + k + "'s mixed placement " + w);
          }
          mixedShared++;
        }
        for (String v : world.book.vendors().keySet()) {
          Picks[] first = lives.get(0).result(v).picks();
          if (first == null) continue;
          VendorResult one = lives.get(0).result(v);
          for (int k = 1; k < 4; k++) {
            VendorResult kinResult = lives.get(k).result(v);
            assertTrue(kinResult.picks() == first, "case " + n + " kin " + k + " of " + v);
            // a vendor that cannot carry a workload: the very same result
            if (one.scanned().missing() != null && !one.scanned().anySold()) {
              assertTrue(kinResult == one, "case " + n + " kin " + k + "'s result at " + v);
              uncarriedShared++;
            }
            // and the GPU half of their plans: its placements are the very same
            Optional<VendorPlan> onePlan = planAt(lives.get(0), v), kinPlan = planAt(lives.get(k), v);
            if (onePlan.isPresent() && kinPlan.isPresent()) {
              assertTrue(kinPlan.get().placements() == onePlan.get().placements(), "case " + n + " kin " + k + "'s placements at " + v);
              placementsShared++;
            }
          }
          assertTrue(lives.get(4).result(v).picks() != first, "case " + n + ": another horizon shares " + v + "'s scan");
          shared++;
        }
      }
    }
    assertTrue(shared > 500 && placementsShared > 500 && mixedShared > 30 && uncarriedShared > 100 && compared == 60 * 5 * 5,
        shared + " shared scans, " + uncarriedShared + " shared results that carry nothing, " + placementsShared + " shared placements, " + mixedShared + " shared mixed plans, " + compared
            + " rankings compared");
  }

  /** Vendor {@code v}'s plan in the live ranking, built as a reader builds it. */
  private static Optional<VendorPlan> planAt(LiveRanking live, String v) {
    return live.ranking().plans().stream().filter(p -> p.vendor().equals(v)).findFirst();
  }

  private static String encoded(Ranking r) {
    return Json.encode(r.toMap());
  }

  private static String withoutTime(Ranking r) {
    Map<String, Object> m = r.toMap();
    m.remove("quotesAt");
    return Json.encode(m);
  }

  /** The books of one sequence: each change makes a new book from the last one. */
  private static final class World {
    QuoteBook book;
    int nextVendor = 10;
    int nextOffer = 100;

    World(QuoteBook first) {
      book = first;
    }

    /** One random change; returns what it was. */
    String change(Random r) {
      Map<String, QuoteBook.Entry> vendors = new LinkedHashMap<>(book.vendors());
      Map<String, String> unavailable = new LinkedHashMap<>(book.unavailable());
      FxRates fx = book.fx();
      Instant at = book.builtAt().plus(Duration.ofMinutes(1 + r.nextInt(90)));
      List<String> ids = new ArrayList<>(vendors.keySet());
      String v = ids.isEmpty() ? null : ids.get(r.nextInt(ids.size()));
      QuoteBook.Entry e = v == null ? null : vendors.get(v);
      String kind = switch (r.nextInt(14)) {
        case 0 -> "price up";
        case 1 -> "price down";
        case 2 -> "one price";
        case 3 -> "offer added";
        case 4 -> "offers removed";
        case 5 -> "vendor vanished";
        case 6 -> "vendor appeared";
        case 7 -> "stale";
        case 8 -> "expired";
        case 9 -> "fx";
        case 10 -> "terms";
        case 11 -> "fetched again";
        case 12 -> "days pass";
        default -> "nothing";
      };
      if (e == null && !kind.equals("fx") && !kind.equals("days pass")) kind = "vendor appeared";
      switch (kind) {
        case "price up", "price down" -> {
          // every price of the vendor, or those of one card
          BigDecimal factor = new BigDecimal(kind.equals("price up") ? "1.07" : "0.91");
          String gpu = r.nextBoolean() ? null : e.quotes().quotes().get(r.nextInt(e.quotes().quotes().size())).gpuId();
          vendors.put(v, entry(e, quotes(e).stream().map(q -> gpu == null || q.gpuId().equals(gpu) ? scaled(q, factor) : q).toList()));
        }
        case "one price" -> {
          List<Quote> qs = quotes(e);
          int i = r.nextInt(qs.size());
          qs.set(i, scaled(qs.get(i), new BigDecimal(r.nextBoolean() ? "0.5" : "1.5")));
          vendors.put(v, entry(e, qs));
        }
        case "offer added" -> {
          List<Quote> qs = quotes(e);
          qs.addAll(ScanDifferentialTest.offer(r, v, e.quotes().terms().currency(), nextOffer++));
          vendors.put(v, entry(e, qs));
        }
        case "offers removed" -> {
          List<Quote> qs = quotes(e);
          int drop = 1 + r.nextInt(Math.max(1, qs.size() / 2));
          for (int i = 0; i < drop && qs.size() > 1; i++) qs.remove(r.nextInt(qs.size()));
          vendors.put(v, entry(e, qs));
        }
        case "vendor vanished" -> {
          vendors.remove(v);
          unavailable.put(v, "no quotes yet: the last fetch failed");
        }
        case "vendor appeared" -> {
          String id = unavailable.isEmpty() || r.nextBoolean() ? "v" + nextVendor++ : unavailable.keySet().iterator().next();
          unavailable.remove(id);
          VendorQuotes q = ScanDifferentialTest.vendor(r, id, false);
          vendors.put(id, new QuoteBook.Entry(q, Freshness.fresh()));
        }
        case "stale" -> vendors.put(v, new QuoteBook.Entry(e.quotes(), new Freshness(Freshness.State.STALE,
            Duration.ofMinutes(5 + r.nextInt(3) * 30))));
        case "expired" -> vendors.put(v, new QuoteBook.Entry(e.quotes(), new Freshness(Freshness.State.EXPIRED, Duration.ofDays(3))));
        case "fx" -> fx = new FxRates("EUR", Map.of("USD", new BigDecimal(r.nextBoolean() ? "1.1252" : "1.0831"),
            "CNY", new BigDecimal(r.nextBoolean() ? "8.1470" : "7.9012")), LocalDate.parse("2025-05-09").plusDays(r.nextInt(3)), "test table");
        case "terms" -> {
          VendorTerms t = e.quotes().terms();
          VendorTerms other = r.nextBoolean() ? t.withDiscount(t.discount().compareTo(BigDecimal.ONE) == 0 ? new BigDecimal("0.85") : BigDecimal.ONE)
              : ScanDifferentialTest.terms(r, t.currency());
          VendorQuotes q = e.quotes();
          vendors.put(v, new QuoteBook.Entry(new VendorQuotes(q.vendor(), q.displayName(), other, q.quotes(), q.rejected(), q.fetchedAt(),
              q.note(), q.reference()), e.freshness()));
        }
        case "fetched again" -> vendors.put(v, new QuoteBook.Entry(e.quotes().withFetchedAt(at), Freshness.fresh()));
        case "days pass" -> at = book.builtAt().plus(Duration.ofHours(20 + r.nextInt(340)));
        default -> { }
      }
      book = new QuoteBook(vendors, unavailable, fx, at);
      return kind;
    }

    private static List<Quote> quotes(QuoteBook.Entry e) {
      return new ArrayList<>(e.quotes().quotes());
    }

    private static QuoteBook.Entry entry(QuoteBook.Entry e, List<Quote> quotes) {
      return new QuoteBook.Entry(e.quotes().withQuotes(quotes, List.of()), e.freshness());
    }

    private static Quote scaled(Quote q, BigDecimal factor) {
      Money p = q.price();
      return new Quote(q.vendor(), q.region(), q.offerId(), q.gpuId(), q.gpuCount(), q.vcpus(), q.ramGiB(), q.billing(),
          new Money(p.amount().multiply(factor).setScale(4, RoundingMode.HALF_UP), p.currency()), q.unit(), q.observedAt(),
          q.source(), q.priceDate(), q.upstream(), q.country());
    }
  }
}
