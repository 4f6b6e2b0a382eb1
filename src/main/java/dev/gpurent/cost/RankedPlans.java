package dev.gpurent.cost;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import java.util.function.IntFunction;

/**
 * A ranking's plans in their order, each built in full (bill, winsAt) when it is read: the order
 * rests on each plan's draft alone, so a reader of the top few pays for those. A one-off ranking
 * keeps each plan it builds; a live one keeps none (a reader builds what it renders, and nothing
 * of it is kept), so that a live scenario holds its drafts only. Unmodifiable and thread-safe.
 */
final class RankedPlans extends AbstractList<VendorPlan> implements RandomAccess {

  private final PlanDraft[] drafts;
  /** A live ranking's renderer (null: a one-off ranking's, which keeps what it builds). */
  private final CostModel.Renderer renderer;
  private final VendorPlan[] built;
  private IntFunction<VendorPlan> build;
  private int missing;

  /** {@code build} makes plan i: kept for a one-off ranking, made again at each read with a live one's {@code renderer}. */
  RankedPlans(List<PlanDraft> drafts, IntFunction<VendorPlan> build, CostModel.Renderer renderer) {
    this.drafts = drafts.toArray(new PlanDraft[0]);
    this.renderer = renderer;
    this.built = renderer == null ? new VendorPlan[this.drafts.length] : null;
    this.build = build;
    this.missing = this.drafts.length;
  }

  @Override
  public synchronized VendorPlan get(int i) {
    if (built == null) return build.apply(i);
    VendorPlan p = built[i];
    if (p == null) {
      p = build.apply(i);
      built[i] = p;
      if (--missing == 0) build = null;
    }
    return p;
  }

  /** A live ranking's plans, kept whole on {@code next}: built there from now on (nothing in them moved). */
  void rebase(dev.gpurent.quote.QuoteBook next) {
    if (renderer != null) renderer.rebase(next);
  }

  /** Plan i's draft: what ranked it. */
  PlanDraft draft(int i) {
    return drafts[i];
  }

  @Override
  public int size() {
    return drafts.length;
  }
}
