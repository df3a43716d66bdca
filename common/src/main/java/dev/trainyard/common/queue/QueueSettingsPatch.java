package dev.trainyard.common.queue;

import java.util.List;

/**
 * The settings an updateQueue request names; {@code null} means "not given". An explicit JSON null
 * for {@code enqueueingLabel} clears it ({@code clearEnqueueingLabel}), which absence does not.
 * {@code requiredStatuses: []} is a real value ("none required"), reset to null only by {@code
 * deleteRequiredStatuses}. A JSON null {@code mergeCommitMessage} goes back to the merge method's
 * default ({@code clearMergeCommitMessage}).
 */
public record QueueSettingsPatch(
    QueueState state,
    QueueMode mode,
    Long concurrency,
    Long bisectionConcurrency,
    Long testingTimeoutMinutes,
    Long pendingFailureDepth,
    Boolean canOptimisticallyMerge,
    Boolean batch,
    Long batchingMinSize,
    Long batchingMaxWaitTimeMinutes,
    Boolean createPrsForTestingBranches,
    Boolean commentsEnabled,
    Boolean commandsEnabled,
    Boolean statusCheckEnabled,
    Boolean extensionEnabled,
    Boolean labelCommandsEnabled,
    Boolean stateLabelsEnabled,
    String enqueueingLabel,
    boolean clearEnqueueingLabel,
    List<String> requiredStatuses,
    boolean deleteRequiredStatuses,
    List<String> allowedBotSubmitters,
    DirectMergeMode directMergeMode,
    OptimizationMode optimizationMode,
    MergeMethod mergeMethod,
    Long notReadyTimeoutHours,
    List<MergeWindow> mergeWindows,
    Boolean batchingAdaptive,
    Long batchingMaxSize,
    Boolean concurrencyAdaptive,
    MergeCommitMessage mergeCommitMessage,
    boolean clearMergeCommitMessage,
    Long ciBudgetMinutesPerMerge) {

  public static QueueSettingsPatch empty() {
    return new QueueSettingsPatch(
        null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, false, null, false, null, null, null, null, null, null, null, null, null,
        null, false, null);
  }

  /**
   * Whether the patch changes a setting, not only the queue's state (pause, resume, drain): the
   * first is an administrator's change, the second an operator's.
   */
  public boolean changesSettings() {
    return !equals(
        new QueueSettingsPatch(
            state, null, null, null, null, null, null, null, null, null, null, null, null, null,
            null, null, null, null, false, null, false, null, null, null, null, null, null, null,
            null, null, null, false, null));
  }

  /** A patch that changes only the mode. */
  public static QueueSettingsPatch mode(QueueMode mode) {
    return only(mode, null, null, null, null);
  }

  /** A patch that changes only the merge windows. */
  public static QueueSettingsPatch mergeWindows(List<MergeWindow> windows) {
    return only(null, null, null, windows, null);
  }

  /** A patch that changes only the merge method (a queue created with one). */
  public static QueueSettingsPatch mergeMethod(MergeMethod mergeMethod) {
    return only(null, null, mergeMethod, null, null);
  }

  /** A patch that changes only the direct merge mode. */
  public static QueueSettingsPatch directMergeMode(DirectMergeMode directMergeMode) {
    return only(null, null, null, null, directMergeMode);
  }

  /** A patch that changes only the concurrency (a scheduler simulating another's window). */
  public static QueueSettingsPatch concurrency(long concurrency) {
    return only(null, concurrency, null, null, null);
  }

  private static QueueSettingsPatch only(
      QueueMode mode,
      Long concurrency,
      MergeMethod mergeMethod,
      List<MergeWindow> windows,
      DirectMergeMode directMergeMode) {
    return new QueueSettingsPatch(
        null,
        mode,
        concurrency,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        false,
        null,
        false,
        null,
        directMergeMode,
        null,
        mergeMethod,
        null,
        windows,
        null,
        null,
        null,
        null,
        false,
        null);
  }

  /** The same patch without its mode (kept back while a mode switch waits for runs). */
  public QueueSettingsPatch withoutMode() {
    return new QueueSettingsPatch(
        state,
        null,
        concurrency,
        bisectionConcurrency,
        testingTimeoutMinutes,
        pendingFailureDepth,
        canOptimisticallyMerge,
        batch,
        batchingMinSize,
        batchingMaxWaitTimeMinutes,
        createPrsForTestingBranches,
        commentsEnabled,
        commandsEnabled,
        statusCheckEnabled,
        extensionEnabled,
        labelCommandsEnabled,
        stateLabelsEnabled,
        enqueueingLabel,
        clearEnqueueingLabel,
        requiredStatuses,
        deleteRequiredStatuses,
        allowedBotSubmitters,
        directMergeMode,
        optimizationMode,
        mergeMethod,
        notReadyTimeoutHours,
        mergeWindows,
        batchingAdaptive,
        batchingMaxSize,
        concurrencyAdaptive,
        mergeCommitMessage,
        clearMergeCommitMessage,
        ciBudgetMinutesPerMerge);
  }
}
