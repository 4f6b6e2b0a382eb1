package dev.gpurent.adapter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a parser refused, for a payload's {@code rejected} list: each rejected row with its reason,
 * and rows skipped as not offers at all (CPU instances, other operating systems) counted in one
 * line per reason with the first example, since a real feed has thousands of them.
 */
public final class RowLog {
  private final List<String> rejected = new ArrayList<>();
  private final Map<String, int[]> skipped = new LinkedHashMap<>();
  private final Map<String, String> firstSkipped = new HashMap<>();

  void reject(String rowAndReason) {
    rejected.add(rowAndReason);
  }

  void skip(String reason, String example) {
    skipped.computeIfAbsent(reason, r -> new int[1])[0]++;
    firstSkipped.putIfAbsent(reason, example);
  }

  private static final java.util.regex.Pattern SKIPPED = java.util.regex.Pattern.compile("skipped (\\d+) \\w+: .*");

  /**
   * How many rows a payload's rejected list stands for: each rejected row once, and each
   * "skipped N rows: ..." summary line as its N rows, so that a status counts rows, not lines.
   *
   * @return {rejected rows, skipped rows}
   */
  public static long[] rowCounts(List<String> lines) {
    long rejected = 0, skipped = 0;
    for (String l : lines) {
      java.util.regex.Matcher m = SKIPPED.matcher(l);
      if (m.matches()) skipped += Long.parseLong(m.group(1));
      else rejected++;
    }
    return new long[] {rejected, skipped};
  }

  /** The rejected rows, then one "skipped N <noun>s: reason (first: ...)" line per reason. */
  List<String> lines(String noun) {
    List<String> all = new ArrayList<>(rejected);
    skipped.forEach((reason, n) -> all.add("skipped " + n[0] + " " + noun + (n[0] == 1 ? "" : "s") + ": " + reason
        + " (first: " + firstSkipped.get(reason) + ")"));
    return all;
  }
}
