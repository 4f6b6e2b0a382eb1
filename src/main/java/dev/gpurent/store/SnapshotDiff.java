package dev.gpurent.store;

import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteJson;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What changed between two snapshots, matching offers by {@link Quote#key()} (vendor, region,
 * offer, billing mode).
 *
 * @param snapshot  the newer side
 * @param against   the side compared with (by default the snapshot taken just before)
 * @param changed   offers whose price, currency or unit changed, largest move first
 * @param added     offers only in {@code snapshot}
 * @param removed   offers only in {@code against}
 * @param unchanged offers in both at the same price
 * @param skipped   vendors missing from either side ({@link SnapshotMeta#missing()}): not compared,
 *                  so a vendor that had not reported when one side was taken is neither added nor removed
 */
public record SnapshotDiff(SnapshotMeta snapshot, SnapshotMeta against, List<Change> changed, List<Quote> added,
                           List<Quote> removed, int unchanged, List<String> skipped) {

  /**
   * One offer's move.
   *
   * @param percent (after - before) / before x 100, two places, half-up; null when the currency or
   *                unit changed or the old price was zero
   */
  public record Change(Quote before, Quote after, BigDecimal percent) {

    public BigDecimal delta() {
      return sameTerms() ? after.price().amount().subtract(before.price().amount()) : null;
    }

    boolean sameTerms() {
      return before.price().currency().equals(after.price().currency()) && before.unit() == after.unit();
    }
  }

  /** Compares two quote lists, leaving out the vendors either side misses; the first quote of a key wins when a list repeats one. */
  public static SnapshotDiff of(SnapshotMeta snapshot, List<Quote> now, SnapshotMeta against, List<Quote> then) {
    java.util.Set<String> skipped = new java.util.TreeSet<>(snapshot.missing());
    skipped.addAll(against.missing());
    Map<String, Quote> old = index(then, skipped);
    Map<String, Quote> cur = index(now, skipped);
    List<Change> changed = new ArrayList<>();
    List<Quote> added = new ArrayList<>();
    List<Quote> removed = new ArrayList<>();
    int same = 0;
    for (Map.Entry<String, Quote> e : cur.entrySet()) {
      Quote before = old.get(e.getKey());
      Quote after = e.getValue();
      if (before == null) {
        added.add(after);
      } else if (before.price().equals(after.price()) && before.unit() == after.unit()) {
        same++;
      } else {
        changed.add(new Change(before, after, percent(before, after)));
      }
    }
    for (Map.Entry<String, Quote> e : old.entrySet()) {
      if (!cur.containsKey(e.getKey())) removed.add(e.getValue());
    }
    changed.sort(Comparator.<Change, BigDecimal>comparing(c -> c.percent() == null ? null : c.percent().abs(),
            Comparator.nullsLast(Comparator.reverseOrder()))
        .thenComparing(c -> c.after().key()));
    return new SnapshotDiff(snapshot, against, changed, added, removed, same, List.copyOf(skipped));
  }

  private static Map<String, Quote> index(List<Quote> quotes, java.util.Set<String> skipped) {
    Map<String, Quote> m = new LinkedHashMap<>();
    for (Quote q : quotes) if (!skipped.contains(q.vendor())) m.putIfAbsent(q.key(), q);
    return m;
  }

  private static BigDecimal percent(Quote before, Quote after) {
    if (!before.price().currency().equals(after.price().currency()) || before.unit() != after.unit()) return null;
    BigDecimal b = before.price().amount();
    if (b.signum() == 0) return null;
    return after.price().amount().subtract(b).multiply(BigDecimal.valueOf(100)).divide(b, 2, RoundingMode.HALF_UP);
  }

  public JsonObject toJson() {
    JsonArray ch = new JsonArray();
    for (Change c : changed) {
      Quote a = c.after();
      ch.add(new JsonObject().put("vendor", a.vendor()).put("region", a.region()).put("offer", a.offerId()).put("gpu", a.gpuId())
          .put("billing", a.billing().wire())
          .put("before", c.before().price().amount().toPlainString()).put("beforeCurrency", c.before().price().currency())
          .put("beforeUnit", c.before().unit().wire())
          .put("after", a.price().amount().toPlainString()).put("currency", a.price().currency()).put("unit", a.unit().wire())
          .put("delta", c.delta() == null ? null : c.delta().toPlainString())
          .put("percent", c.percent()));
    }
    JsonArray add = new JsonArray();
    added.forEach(q -> add.add(QuoteJson.toJson(q)));
    JsonArray rem = new JsonArray();
    removed.forEach(q -> rem.add(QuoteJson.toJson(q)));
    return new JsonObject().put("snapshot", snapshot.brief()).put("against", against.brief())
        .put("changed", ch).put("added", add).put("removed", rem).put("unchanged", unchanged).put("skipped", new JsonArray(skipped));
  }
}
