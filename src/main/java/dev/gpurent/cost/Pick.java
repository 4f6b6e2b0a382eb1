package dev.gpurent.cost;

import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Quote;

/** The cheapest offer found so far for one workload, with the usage it was priced at. */
final class Pick {
  Quote quote;
  Fit fit;
  int instances;
  double hours;
  double cost;
  /** Extra share of hours paid for spot interruptions (0 for other modes). */
  double spotOverhead;
  /** The billing mode it was priced in, and the GPUs of one instance. */
  Billing billing;
  double gpusPerInstance;
  /** Machines one model copy or one job spans (1: one machine; more only with allowMultiNode). */
  int spread = 1;

  Pick set(Quote q, Fit f, int instances, double hours, double cost, double spotOverhead) {
    this.quote = q;
    if (q != null) {
      this.billing = q.billing();
      this.gpusPerInstance = q.gpuCount();
    }
    this.fit = f;
    this.instances = instances;
    this.hours = hours;
    this.cost = cost;
    this.spotOverhead = spotOverhead;
    return this;
  }

  int cards() {
    return instances * (int) gpusPerInstance;
  }
}
