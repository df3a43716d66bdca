package dev.trainyard.bench.github;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BinaryOperator;

/**
 * What the GitHub simulator was asked and answered, counted: reads (GET) and writes (everything
 * else) by {@link Family}, requests by documented operation ({@code METHOD template}), GETs
 * answered 304 (a conditional request GitHub does not count against the rate limit), and answers of
 * 400 and above by operation and status. Pure: it is handed the simulator's records and a way to
 * name each path's operation.
 */
final class RequestTally {
  private final Map<Family, Integer> reads = new EnumMap<>(Family.class);
  private final Map<Family, Integer> writes = new EnumMap<>(Family.class);
  private final Map<String, Integer> operations = new TreeMap<>();
  private final Map<String, Integer> refused = new TreeMap<>();
  private int notModified;

  /**
   * Counts {@code calls} ({@code METHOD path}, as {@code GithubSimulator.calls()} records them) and
   * {@code answers} ({@code METHOD path status}, as {@code answered()} does); {@code template}
   * names the documented operation of a method and path.
   */
  static RequestTally of(
      List<String> calls, List<String> answers, BinaryOperator<String> template) {
    RequestTally tally = new RequestTally();
    for (String call : calls) {
      String[] parts = call.split(" ", 2);
      String operation = template.apply(parts[0], parts[1]);
      Family family = Family.of(operation);
      (parts[0].equals("GET") ? tally.reads : tally.writes).merge(family, 1, Integer::sum);
      tally.operations.merge(parts[0] + " " + operation, 1, Integer::sum);
    }
    for (String answer : answers) {
      String[] parts = answer.split(" ", 3);
      int status = Integer.parseInt(parts[2]);
      if (status == 304) {
        tally.notModified++;
      } else if (status >= 400) {
        String operation = parts[0] + " " + template.apply(parts[0], parts[1]);
        tally.refused.merge(operation + " → " + status, 1, Integer::sum);
      }
    }
    return tally;
  }

  int total() {
    return reads() + writes();
  }

  int reads() {
    return reads.values().stream().mapToInt(Integer::intValue).sum();
  }

  int writes() {
    return writes.values().stream().mapToInt(Integer::intValue).sum();
  }

  int reads(Family family) {
    return reads.getOrDefault(family, 0);
  }

  int writes(Family family) {
    return writes.getOrDefault(family, 0);
  }

  int notModified() {
    return notModified;
  }

  /** Requests by operation, {@code METHOD template} in order. */
  Map<String, Integer> operations() {
    return Collections.unmodifiableMap(operations);
  }

  /** Answers of 400 and above, by {@code METHOD template → status}. */
  Map<String, Integer> refused() {
    return Collections.unmodifiableMap(refused);
  }
}
