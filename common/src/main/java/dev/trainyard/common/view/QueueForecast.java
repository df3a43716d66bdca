package dev.trainyard.common.view;

import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.WireEnum;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where the PRs of a queue stand (API.md §2 {@code queuePosition}, {@code estimatedMergeAt}), as
 * the worker estimated at {@code at}, when it wrote the queue: {@code prNumbers}, comma-separated
 * in the order they are expected to land (the first {@value #MAX_LINE}), and {@code etaSeconds},
 * for each the expected landing in seconds after {@code at}, empty when unknown. Text, not arrays,
 * because every command rewrites the queue's document: 3 bytes a PR, 8 with an estimate ({@code
 * QueueDocumentSizeTest}'s PRs), where two arrays took 15. Readers add it to the stored views; an
 * estimate already in the past reads as now.
 */
public record QueueForecast(Instant at, String prNumbers, String etaSeconds) {
  /** How many PRs of a queue get a position and an estimate. */
  public static final int MAX_LINE = 500;

  public static final QueueForecast NONE = new QueueForecast(Instant.EPOCH, "", "");

  public QueueForecast {
    at = at == null ? Instant.EPOCH : at;
    prNumbers = prNumbers == null ? "" : prNumbers;
    etaSeconds = etaSeconds == null ? "" : etaSeconds;
  }

  /** The forecast of {@code line} (PR numbers in order) with each one's estimate, null: unknown. */
  public static QueueForecast of(Instant at, List<Long> line, List<Instant> estimates) {
    StringBuilder numbers = new StringBuilder();
    StringBuilder etas = new StringBuilder();
    for (int i = 0; i < line.size(); i++) {
      if (i > 0) {
        numbers.append(',');
        etas.append(',');
      }
      numbers.append(line.get(i));
      Instant eta = estimates.get(i);
      if (eta != null) {
        etas.append(Math.max(0, eta.getEpochSecond() - at.getEpochSecond()));
      }
    }
    return new QueueForecast(at, numbers.toString(), etas.toString());
  }

  /** The 1-based place of {@code prNumber} in line, if it is in the forecast. */
  public Optional<Integer> position(long prNumber) {
    int index = numbers().indexOf(prNumber);
    return index < 0 ? Optional.empty() : Optional.of(index + 1);
  }

  /** When {@code prNumber} is expected to land, not before {@code now}; empty when unknown. */
  public Optional<Instant> estimatedMergeAt(long prNumber, Instant now) {
    int index = numbers().indexOf(prNumber);
    String[] etas = etaSeconds.split(",", -1);
    if (index < 0 || index >= etas.length || etas[index].isEmpty()) {
      return Optional.empty();
    }
    Instant eta = at.plusSeconds(Long.parseLong(etas[index]));
    return Optional.of(eta.isBefore(now) ? now : eta);
  }

  /**
   * {@code item} (a PR's view or list item as JSON) with its {@code queuePosition} and {@code
   * estimatedMergeAt}: null once concluded, or when it is not in the forecast. The stored views
   * never hold them, so a PR moving up in line rewrites no history row.
   */
  public ObjectNode place(ObjectNode item, Instant now) {
    long prNumber = item.get("prNumber").asLong();
    boolean waiting =
        WireEnum.parse(PrState.class, item.get("state").asString())
            .filter(state -> !state.isFinal())
            .isPresent();
    Optional<Integer> place = waiting ? position(prNumber) : Optional.empty();
    Optional<Instant> eta = waiting ? estimatedMergeAt(prNumber, now) : Optional.empty();
    item.put("queuePosition", place.orElse(null));
    item.put("estimatedMergeAt", eta.map(Timestamps::format).orElse(null));
    return item;
  }

  /** The PR numbers in line. */
  public List<Long> numbers() {
    List<Long> numbers = new ArrayList<>();
    if (!prNumbers.isEmpty()) {
      for (String n : prNumbers.split(",")) {
        numbers.add(Long.parseLong(n));
      }
    }
    return numbers;
  }
}
