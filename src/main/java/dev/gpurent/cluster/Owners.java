package dev.gpurent.cluster;

/**
 * Which node owns each live scenario. Every node knows every live scenario; exactly one, its
 * owner, keeps it ranked through every price change whether or not a dashboard follows it (for
 * its alerts and REST readers); other nodes rank it only while their own dashboards follow it.
 */
public interface Owners {

  /** Whether this node owns the scenario, by the membership it knows now. */
  boolean owns(String scenario);

  /** This node's id (the cluster manager's), "" on a single node. */
  String node();

  /** Tells {@code changed} (on any thread) each time the membership changes; ownership may then have moved. */
  void onChange(Runnable changed);

  /** One node alone: it owns every scenario. */
  static Owners single() {
    return new Owners() {
      @Override
      public boolean owns(String scenario) {
        return true;
      }

      @Override
      public String node() {
        return "";
      }

      @Override
      public void onChange(Runnable changed) {
        // a single node's membership never changes
      }
    };
  }
}
