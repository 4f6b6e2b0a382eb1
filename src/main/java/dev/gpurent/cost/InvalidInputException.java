package dev.gpurent.cost;

import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Input that cannot be used: every bad field, each named by its path (such as
 * {@code workloads[1].peakQps}) with the reason.
 */
public final class InvalidInputException extends RuntimeException {

  /**
   * One bad field and why: the reason in English, and, where the reader made it as a
   * {@link Message}, that message, so that an edge can say it in the client's language (null else).
   */
  public record Problem(String field, String reason, Message message) {

    public Problem(String field, String reason) {
      this(field, reason, null);
    }

    public Problem(String field, Message message) {
      this(field, Localizer.en(message), message);
    }

    /** The same problem at another field path (a reader nested in another names its fields so). */
    public Problem at(String otherField) {
      return new Problem(otherField, reason, message);
    }

    /** Two problems are the same when they name the same field with the same (English) reason. */
    @Override
    public boolean equals(Object o) {
      return o instanceof Problem p && field.equals(p.field) && reason.equals(p.reason);
    }

    @Override
    public int hashCode() {
      return field.hashCode() * 31 + reason.hashCode();
    }

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
