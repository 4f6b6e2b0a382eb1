package dev.gpurent.quotesheet;

import java.util.List;
import java.util.stream.Collectors;

/** A quote sheet that cannot be imported, with every problem found (nothing was written). */
public final class BadSheetException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final transient List<CellProblem> problems;

  public BadSheetException(List<CellProblem> problems) {
    super(problems.stream().map(CellProblem::toString).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  public List<CellProblem> problems() {
    return problems;
  }
}
