package dev.gpurent.cost;

import java.util.AbstractList;
import java.util.RandomAccess;
import java.util.function.IntFunction;

/**
 * A ranking's plans in their order, each built in full (bill, winsAt) when it is first read: the
 * order rests on each plan's draft alone, so a reader of the top few pays for those. Unmodifiable
 * and thread-safe; once every plan is built it holds no more than a list of them.
 */
final class RankedPlans extends AbstractList<VendorPlan> implements RandomAccess {

  private final VendorPlan[] built;
  private IntFunction<VendorPlan> build;
  private int missing;

  RankedPlans(int size, IntFunction<VendorPlan> build) {
    this.built = new VendorPlan[size];
    this.build = build;
    this.missing = size;
  }

  @Override
  public synchronized VendorPlan get(int i) {
    VendorPlan p = built[i];
    if (p == null) {
      p = build.apply(i);
      built[i] = p;
      if (--missing == 0) build = null;
    }
    return p;
  }

  @Override
  public int size() {
    return built.length;
  }
}
