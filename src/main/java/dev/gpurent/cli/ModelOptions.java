package dev.gpurent.cli;

import dev.gpurent.cost.Fit;
import dev.gpurent.cost.Inference;
import dev.gpurent.cost.ModelLoad;
import dev.gpurent.cost.ModelMemory;
import dev.gpurent.cost.Sizing;
import dev.gpurent.cost.TokenDemand;
import dev.gpurent.report.TextTable;
import dev.gpurent.text.Messages;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code sizing --model}: the options of a model sized from its architecture and measured speed, and what it prints. */
final class ModelOptions {

  private ModelOptions() {}

  /** The workload fields the {@code --model} options give; a field left out takes the reader's default or is refused as required. */
  static void put(Map<String, Object> w, SizingCommand c) {
    if (c.sizing != null) w.put("sizing", c.sizing);
    if (c.precision != null) w.put("precision", c.precision);
    if (c.context != null) w.put("contextTokens", c.context);
    if (c.concurrent != null) w.put("concurrentSequences", c.concurrent);
    if (c.inputTokens != null) w.put("inputTokens", c.inputTokens);
    if (c.outputTokens != null) w.put("outputTokens", c.outputTokens);
    if (c.rps != null) w.put("requestsPerSecond", c.rps);
    if (c.ttft != null) w.put("ttftSeconds", c.ttft);
    if (c.tpot != null) w.put("tpotSeconds", c.tpot);
    if (c.kvPrecision != null) w.put("kvCachePrecision", c.kvPrecision);
  }

  /** Memory (weights, KV cache, runtime), the load in tokens, then cards per card type with the source of each speed. */
  static void print(PrintWriter out, Inference i, List<Fit> fits, double headroom, Lang lang) {
    ModelLoad m = i.modelSizing().orElseThrow();
    ModelMemory mem = ModelMemory.of(i, m);
    Messages say = Messages.of("report", lang);
    out.println(say.text("sizing.model", "id", m.model().id(), "hf", m.model().hf(), "precision", i.precision().wire(),
        "source", m.model().source()));
    out.println(say.text("sizing.memory", "formula", Localizer.text(Sizing.vram(i).formula(), lang)));
    out.println(say.text("sizing.load.tokens", "rps", SizingCommand.fmt(m.requestsPerSecond()), "output", m.outputTokens(),
        "tps", Messages.number(m.requestsPerSecond() * m.outputTokens()), "input", m.inputTokens(),
        "headroom", String.format(Locale.ROOT, "%.2f", 1 + headroom)));
    TokenDemand.of(i).ifPresent(d -> out.println(say.text("sizing.tokensMonth", "input", Messages.number(d.inputTokensPerMonth() / 1e6),
        "output", Messages.number(d.outputTokensPerMonth() / 1e6), "hours", Messages.number(d.hoursPerMonth()))));
    TextTable table = new TextTable(new boolean[] {false, true, true, true, true, true, false}, SizingCommand.headings(say,
        "sizing.col.tokensPerGpu", "sizing.col.speed"));
    List<String> sources = new ArrayList<>();
    List<String> unfit = new ArrayList<>();
    for (Fit f : fits) {
      String memory = Messages.number(f.gpu().memoryGiB()) + " GiB";
      if (!f.ok()) {
        unfit.add(f.gpu().name() + " (" + memory + "): " + Localizer.text(f.unfitReason(), lang));
        continue;
      }
      table.row(f.gpu().name(), memory, Integer.toString(f.cardsPerCopy()), Integer.toString(f.cards()),
          Math.round(f.memoryShare() * 100) + "%", String.format(Locale.ROOT, "%.1f", f.speed().perGpu()),
          say.text(f.speed().measured() ? "sizing.speed.measured" : "sizing.speed.estimated"));
      sources.add("  " + f.gpu().id() + ": " + Localizer.text(f.speed().source(), lang));
    }
    out.print(table.render(""));
    if (!sources.isEmpty()) out.println(say.text("sizing.speeds"));
    sources.forEach(out::println);
    unfit.forEach(out::println);
    if (mem.kvGB() > mem.weightsGB()) {
      out.println(say.text("sizing.kvLarger", "kv", Messages.number(mem.kvGB()), "weights", Messages.number(mem.weightsGB())));
    }
  }
}
