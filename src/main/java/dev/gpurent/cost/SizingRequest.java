package dev.gpurent.cost;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.ModelCatalog;
import dev.gpurent.catalog.UnknownGpuException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sizing question ({@code POST /api/sizing}): one workload's fields at the top level, plus
 * {@code headroom} and {@code gpus} (the cards to size on; default every card). The workload is
 * read by {@link ScenarioReader}, so its fields have the same ranges and messages, without the
 * {@code workloads[0].} prefix; a job without {@code gpuHoursPerMonth} is sized for one hour.
 *
 * @param cards the cards to size on, in the order asked (at most {@link #MAX_GPUS})
 */
public record SizingRequest(Scenario scenario, Workload workload, List<Gpu> cards) {

  /** The most cards one request may name. */
  public static final int MAX_GPUS = 200;

  public static SizingRequest read(Object root, GpuCatalog catalog) {
    return read(root, catalog, ModelCatalog.EMPTY);
  }

  /** As above, a workload may name its {@code model} from {@code models} (issue 31). */
  public static SizingRequest read(Object root, GpuCatalog catalog, ModelCatalog models) {
    if (!(root instanceof Map<?, ?> body)) throw new InvalidInputException("(body)", "must be an object");
    Map<String, Object> workload = new LinkedHashMap<>();
    body.forEach((k, v) -> workload.put(String.valueOf(k), v));
    Object onlyGpus = workload.remove("gpus");
    Object headroom = workload.remove("headroom");
    Object kind = workload.getOrDefault("kind", "inference");
    workload.put("kind", kind);
    if (!workload.containsKey("gpuHoursPerMonth") && !"inference".equals(kind)) workload.put("gpuHoursPerMonth", 1);
    Map<String, Object> scenario = new LinkedHashMap<>();
    scenario.put("workloads", List.of(workload));
    if (headroom != null) scenario.put("headroom", headroom);
    List<InvalidInputException.Problem> problems = new ArrayList<>();
    Scenario s = null;
    try {
      s = new ScenarioReader(catalog, models, ScenarioReader.DEFAULT_MAX_WORKLOADS).read(scenario);
    } catch (InvalidInputException e) {
      e.problems().forEach(p -> problems.add(p.at(p.field().replace("workloads[0].", ""))));
    }
    List<Gpu> cards = cards(onlyGpus, catalog, problems);
    if (!problems.isEmpty()) throw new InvalidInputException(problems);
    return new SizingRequest(s, s.workloads().get(0), cards);
  }

  private static List<Gpu> cards(Object raw, GpuCatalog catalog, List<InvalidInputException.Problem> problems) {
    if (raw == null) return List.copyOf(catalog.all());
    if (!(raw instanceof List<?> names)) {
      problems.add(new InvalidInputException.Problem("gpus", "must be a list of GPU names, such as [\"rtx-4090\"], got "
          + (raw instanceof String ? "text" : Fields.kindOf(raw))));
      return List.of();
    }
    if (names.isEmpty() || names.size() > MAX_GPUS) {
      problems.add(new InvalidInputException.Problem("gpus", "must name 1 to " + MAX_GPUS + " cards, got " + names.size()));
      return List.of();
    }
    List<Gpu> out = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      Object n = names.get(i);
      if (!(n instanceof String name) || name.length() > Fields.MAX_TEXT) {
        problems.add(new InvalidInputException.Problem("gpus[" + i + "]", "must be a GPU name"));
        continue;
      }
      try {
        out.add(catalog.resolve(name));
      } catch (UnknownGpuException e) {
        problems.add(new InvalidInputException.Problem("gpus[" + i + "]", e.getMessage()));
      }
    }
    return out;
  }
}
