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
    this.cost = cost;
    return usage(f, instances, spread, hours, spotOverhead, q == null ? billing : q.billing(), q == null ? gpusPerInstance : q.gpuCount());
  }

  /** The usage an offer is priced at, without its quote: the scan knows the quote only once it wins. */
  Pick usage(Fit f, int instances, int spread, double hours, double spotOverhead, Billing billing, double gpusPerInstance) {
    this.fit = f;
    this.instances = instances;
    this.spread = spread;
    this.hours = hours;
    this.spotOverhead = spotOverhead;
    this.billing = billing;
    this.gpusPerInstance = gpusPerInstance;
    return this;
  }

  int cards() {
    return instances * (int) gpusPerInstance;
  }
}
