package dev.gpurent.cost;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Input that cannot be used: every bad field, each named by its path (such as
 * {@code workloads[1].peakQps}) with the reason.
 */
public final class InvalidInputException extends RuntimeException {

  /** One bad field and why. */
  public record Problem(String field, String reason) {
    @Override
    public String toString() {
      return field + ": " + reason;
    }
  }

  private final List<Problem> problems;

  public InvalidInputException(String field, String reason) {
    this(List.of(new Problem(field, reason)));
  }

  public InvalidInputException(List<Problem> problems) {
    super(problems.stream().map(Problem::toString).collect(Collectors.joining("; ")));
    this.problems = List.copyOf(problems);
  }

  public List<Problem> problems() {
    return problems;
  }

  /** The first bad field. */
  public String field() {
    return problems.get(0).field();
  }

  public String reason() {
    return problems.get(0).reason();
  }
}
