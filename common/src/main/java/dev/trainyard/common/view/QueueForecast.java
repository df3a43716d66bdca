package dev.trainyard.common.view;

import dev.trainyard.common.queue.PrState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where the PRs of a queue stand (API.md §2 {@code queuePosition}, {@code estimatedMergeAt}), as
 * the worker estimated at {@code at}, when it wrote the queue: {@code prNumbers}, comma-separated
 * in the order they are expected to land (the first {@value #MAX_LINE}), and {@code etaSeconds},
 * for each the expected landing in seconds after {@code at}, empty when unknown. Text, not arrays,
 * because every command rewrites the queue's document: 3 bytes a PR, 8 with an estimate ({@code
 * QueueDocumentSizeTest}'s PRs), where two arrays took 15. {@code waits}: one {@link WaitCode} per
 * PR in line, whether it is in a run and if not why it waits; {@code batchUntil}: when the next
 * batch stops waiting for more PRs, null when none waits (SCHEDULING.md "Why a PR waits"). {@code
 * ciMinutesPerMerge}: what the queue's CI cost per merged PR lately, to a tenth of a minute, null
 * until enough PRs merged (SCHEDULING.md "A CI budget"). {@code predictedRiskAuc}: how well the
 * submits' predicted risks told failures from merges (the AUC, to two decimals), null until enough
 * of both were scored; {@code predictedRiskTrusted}: whether the queue spends by them
 * (SCHEDULING.md "Predicted risk"). Readers add it to the stored views; an estimate already in the
 * past reads as now.
 */
public record QueueForecast(
    Instant at,
    String prNumbers,
    String etaSeconds,
    String waits,
    Instant batchUntil,
    Double ciMinutesPerMerge,
    Double predictedRiskAuc,
    boolean predictedRiskTrusted) {
  /** How many PRs of a queue get a position and an estimate. */
  public static final int MAX_LINE = 500;

  public static final QueueForecast NONE =
      new QueueForecast(Instant.EPOCH, "", "", "", null, null, null, false);

  public QueueForecast {
    at = at == null ? Instant.EPOCH : at;
    prNumbers = prNumbers == null ? "" : prNumbers;
    etaSeconds = etaSeconds == null ? "" : etaSeconds;
    // documents written before the key existed: no PR's wait is known
    waits = waits == null ? "" : waits;
  }

  /**
   * The forecast of {@code line} (PR numbers in order) with each one's estimate (null: unknown),
   * each one's {@link WaitCode}, and when the next batch stops waiting.
   */
  public static QueueForecast of(
      Instant at, List<Long> line, List<Instant> estimates, String waits, Instant batchUntil) {
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
    return new QueueForecast(
        at, numbers.toString(), etas.toString(), waits, batchUntil, null, null, false);
  }

  /**
   * This forecast saying what the queue learned from its history: what CI cost per merged PR lately
   * ({@code ciMinutes}), how well the predicted risks did ({@code auc}), each null while not known,
   * and whether the queue spends by them.
   */
  public QueueForecast withLearned(Double ciMinutes, Double auc, boolean trusted) {
    return new QueueForecast(
        at,
        prNumbers,
        etaSeconds,
        waits,
        batchUntil,
        ciMinutes == null ? null : Math.round(ciMinutes * 10) / 10.0,
        auc == null ? null : Math.round(auc * 100) / 100.0,
        trusted);
  }

  /**
   * Whether the queue's CI spent more per merged PR lately than {@code budgetMinutes} allows (0: no
   * budget, never over it).
   */
  public boolean overBudget(long budgetMinutes) {
    return budgetMinutes > 0 && ciMinutesPerMerge != null && ciMinutesPerMerge > budgetMinutes;
  }

  /** The 1-based place of {@code prNumber} in line, if it is in the forecast. */
  public Optional<Integer> position(long prNumber) {
    int index = indexOf(prNumber);
    return index < 0 ? Optional.empty() : Optional.of(index + 1);
  }

  /** When {@code prNumber} is expected to land, not before {@code now}; empty when unknown. */
  public Optional<Instant> estimatedMergeAt(long prNumber, Instant now) {
    return Optional.ofNullable(eta(indexOf(prNumber), now));
  }

  /**
   * {@code item} (a PR's view or list item) with its {@code queuePosition}, {@code
   * estimatedMergeAt}, {@code waitingFor} and {@code waitingReason}: null once concluded, or when
   * it is not in the forecast. The stored views never hold them, so a PR moving up in line rewrites
   * no history row.
   */
  public <T> Placed<T> place(T item, long prNumber, PrState state, Instant now) {
    int index = state.isFinal() ? -1 : indexOf(prNumber);
    WaitCode wait = waitCode(index);
    return new Placed<>(
        item,
        index < 0 ? null : index + 1,
        eta(index, now),
        wait.reason(),
        reason(index, wait).orElse(null));
  }

  /** Why {@code prNumber} waits, when it is in line and waits for a run. */
  public Optional<String> waitingReason(long prNumber) {
    int index = indexOf(prNumber);
    return reason(index, waitCode(index));
  }

  private Optional<String> reason(int index, WaitCode wait) {
    return wait.reason() == null
        ? Optional.empty()
        : Optional.of(WaitReason.sentence(this, index, wait));
  }

  /** The wait code of the {@code index}th PR in line; {@link WaitCode#NONE} when unknown. */
  WaitCode waitCode(int index) {
    return index < 0 || index >= waits.length() ? WaitCode.NONE : WaitCode.of(waits.charAt(index));
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

  /**
   * The 0-based index of {@code prNumber} in {@code prNumbers}, -1 when absent: one scan of the
   * text, no split and no boxing (it runs on every read of a waiting PR).
   */
  private int indexOf(long prNumber) {
    int index = 0;
    int at = 0;
    int length = prNumbers.length();
    while (at < length) {
      int end = prNumbers.indexOf(',', at);
      if (end < 0) {
        end = length;
      }
      if (Long.parseLong(prNumbers, at, end, 10) == prNumber) {
        return index;
      }
      index++;
      at = end + 1;
    }
    return -1;
  }

  /** The estimate of the {@code index}th PR in line, not before {@code now}; null: unknown. */
  private Instant eta(int index, Instant now) {
    if (index < 0) {
      return null;
    }
    int at = 0;
    for (int i = 0; i < index; i++) {
      at = etaSeconds.indexOf(',', at) + 1;
      if (at == 0) {
        return null;
      }
    }
    int end = etaSeconds.indexOf(',', at);
    end = end < 0 ? etaSeconds.length() : end;
    if (at >= end) {
      return null;
    }
    Instant eta = at().plusSeconds(Long.parseLong(etaSeconds, at, end, 10));
    return eta.isBefore(now) ? now : eta;
  }
}
