package dev.gpurent.cluster;

/**
 * Which node ranks each live scenario. Every node knows every live scenario; exactly one, its
 * owner, ranks it and publishes its rankings, which every node's dashboards receive. The owner is
 * also the one node that may act on a scenario's ranking once (an alert, say): ask {@link #owns}.
 */
public interface Owners {

  /** Whether this node ranks the scenario, by the membership it knows now. */
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
