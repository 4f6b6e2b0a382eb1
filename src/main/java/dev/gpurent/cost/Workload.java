package dev.gpurent.cost;

import java.util.Locale;
import java.util.Optional;

/**
 * One thing a team runs on rented GPUs: a serving {@link Inference} or a time-boxed {@link Job}
 * (fine-tuning, training, batch experiments). A workload may pin a GPU model or a vendor.
 */
public sealed interface Workload permits Inference, Job {

  /** The guide's kinds of work; the bill's item for each is {@link Words#item} ("inference GPU" / 推理GPU). */
  enum Kind {
    INFERENCE("inference"),
    FINE_TUNE("fine-tune"),
    TRAINING("training"),
    BATCH("batch");

    private final String wire;

    Kind(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }

    static Kind parse(String field, String s) {
      String k = s.trim().toLowerCase(Locale.ROOT).replace('_', '-');
      for (Kind kind : values()) if (kind.wire.equals(k) || (kind == FINE_TUNE && k.equals("finetune"))) return kind;
      throw new InvalidInputException(field, "unknown kind '" + s + "'; known: inference, fine-tune, training, batch");
    }
  }

  String name();

  Kind kind();

  /** Canonical GPU id the workload must run on, if pinned. */
  Optional<String> gpu();

  /** Vendor id the workload must run at, if pinned. */
  Optional<String> vendor();

  /** The card the workload's speed figures were measured on. */
  String referenceGpu();

  /** Whether the work survives being preempted (checkpoints): only then is spot allowed. */
  boolean interruptible();

  /** Hours one spot interruption costs: work since the last checkpoint plus restart and reload. */
  double restartOverheadHours();

  /**
   * Whether cards that must work together (one model copy, one job) may be spread over several
   * machines, at the speed the network between them allows; otherwise they sit in one instance.
   */
  boolean allowMultiNode();
}
