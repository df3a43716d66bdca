package dev.trainyard.common.queue;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Every writable setting of a queue (API.md §3 getQueue), with its defaults. Integer settings are
 * {@code long} because the wire range is 0..4294967295. The last three are the self-tuning
 * scheduler's (SCHEDULING.md): {@code batchingAdaptive} sizes batches from the failure rate the
 * queue observes, up to {@code batchingMaxSize}; {@code concurrencyAdaptive} narrows the
 * speculation window in a burst of failures (ADR 0054) and widens it as PRs merge, never above
 * {@code concurrency}. {@code mergeCommitMessage}: null for the merge method's default; left out of
 * the JSON when null, so the versions of queues stored before it existed do not change. {@code
 * ciBudgetMinutesPerMerge}: the CI minutes per merged PR adaptive batching may spend to shorten a
 * PR's wait (SCHEDULING.md "A CI budget"); 0, no budget: the fewest CI runs, and left out of the
 * JSON like the message.
 */
public record QueueSettings(
    QueueMode mode,
    long concurrency,
    long bisectionConcurrency,
    long testingTimeoutMinutes,
    long pendingFailureDepth,
    boolean canOptimisticallyMerge,
    boolean batch,
    long batchingMinSize,
    long batchingMaxWaitTimeMinutes,
    boolean createPrsForTestingBranches,
    boolean commentsEnabled,
    boolean commandsEnabled,
    boolean statusCheckEnabled,
    boolean extensionEnabled,
    boolean labelCommandsEnabled,
    boolean stateLabelsEnabled,
    String enqueueingLabel,
    List<String> requiredStatuses,
    List<String> allowedBotSubmitters,
    DirectMergeMode directMergeMode,
    OptimizationMode optimizationMode,
    MergeMethod mergeMethod,
    long notReadyTimeoutHours,
    List<MergeWindow> mergeWindows,
    boolean batchingAdaptive,
    long batchingMaxSize,
    boolean concurrencyAdaptive,
    @JsonInclude(JsonInclude.Include.NON_NULL) MergeCommitMessage mergeCommitMessage,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) long ciBudgetMinutesPerMerge) {

  /** The largest batch adaptive batching builds unless the queue says otherwise. */
  public static final long DEFAULT_BATCHING_MAX_SIZE = 16;

  /** The only test-branch construction mode; read-only on the wire. */
  public static final String TEST_BRANCH_CONSTRUCTION_MODE = "merge_commits";

  public QueueSettings {
    requiredStatuses = requiredStatuses == null ? null : List.copyOf(requiredStatuses);
    allowedBotSubmitters = List.copyOf(allowedBotSubmitters);
    mergeWindows = mergeWindows == null ? List.of() : List.copyOf(mergeWindows);
    // a queue stored before the setting existed reads 0
    batchingMaxSize = batchingMaxSize < 1 ? DEFAULT_BATCHING_MAX_SIZE : batchingMaxSize;
  }

  public static QueueSettings defaults(QueueMode mode, long concurrency) {
    return new QueueSettings(
        mode,
        concurrency,
        5,
        60,
        0,
        false,
        false,
        4,
        5,
        false,
        true,
        true,
        true,
        true,
        false,
        false,
        null,
        null,
        List.of(),
        DirectMergeMode.OFF,
        OptimizationMode.OFF,
        MergeMethod.MERGE_COMMIT,
        24,
        List.of(),
        false,
        DEFAULT_BATCHING_MAX_SIZE,
        false,
        null,
        0);
  }

  /**
   * Whether the CI budget sizes batches: it is set and adaptive batching is on in single mode
   * (parallel lanes run one PR a run); a queue keeps it otherwise, unused (SCHEDULING.md "A CI
   * budget").
   */
  public boolean ciBudgetInForce() {
    return ciBudgetMinutesPerMerge > 0 && batch && batchingAdaptive && mode == QueueMode.SINGLE;
  }

  /** Parallel queues build lanes from impacted targets, so a PR needs them to be ready. */
  public boolean requiresImpactedTargets() {
    return mode == QueueMode.PARALLEL;
  }

  public QueueSettings withMode(QueueMode newMode) {
    return apply(QueueSettingsPatch.mode(newMode));
  }

  public QueueSettings apply(QueueSettingsPatch p) {
    return new QueueSettings(
        or(p.mode(), mode),
        or(p.concurrency(), concurrency),
        or(p.bisectionConcurrency(), bisectionConcurrency),
        or(p.testingTimeoutMinutes(), testingTimeoutMinutes),
        or(p.pendingFailureDepth(), pendingFailureDepth),
        or(p.canOptimisticallyMerge(), canOptimisticallyMerge),
        or(p.batch(), batch),
        or(p.batchingMinSize(), batchingMinSize),
        or(p.batchingMaxWaitTimeMinutes(), batchingMaxWaitTimeMinutes),
        or(p.createPrsForTestingBranches(), createPrsForTestingBranches),
        or(p.commentsEnabled(), commentsEnabled),
        or(p.commandsEnabled(), commandsEnabled),
        or(p.statusCheckEnabled(), statusCheckEnabled),
        or(p.extensionEnabled(), extensionEnabled),
        or(p.labelCommandsEnabled(), labelCommandsEnabled),
        or(p.stateLabelsEnabled(), stateLabelsEnabled),
        p.clearEnqueueingLabel() ? null : or(p.enqueueingLabel(), enqueueingLabel),
        p.deleteRequiredStatuses() ? null : or(p.requiredStatuses(), requiredStatuses),
        or(p.allowedBotSubmitters(), allowedBotSubmitters),
        or(p.directMergeMode(), directMergeMode),
        or(p.optimizationMode(), optimizationMode),
        or(p.mergeMethod(), mergeMethod),
        or(p.notReadyTimeoutHours(), notReadyTimeoutHours),
        or(p.mergeWindows(), mergeWindows),
        or(p.batchingAdaptive(), batchingAdaptive),
        or(p.batchingMaxSize(), batchingMaxSize),
        or(p.concurrencyAdaptive(), concurrencyAdaptive),
        p.clearMergeCommitMessage() ? null : or(p.mergeCommitMessage(), mergeCommitMessage),
        or(p.ciBudgetMinutesPerMerge(), ciBudgetMinutesPerMerge));
  }

  /**
   * The message template the run's test branch merges are written with: the queue's own when it
   * lands with merge commits (those merges are what lands), else the default.
   */
  public MergeCommitMessage testBranchMessage() {
    return mergeMethod == MergeMethod.MERGE_COMMIT
        ? MergeCommitMessage.effective(mergeCommitMessage, mergeMethod)
        : MergeCommitMessage.MERGE_DEFAULT;
  }

  /** The message template a landing writes its commits with, for the queue's merge method. */
  public MergeCommitMessage landingMessage() {
    return MergeCommitMessage.effective(mergeCommitMessage, mergeMethod);
  }

  /**
   * What these settings are, in 16 hex digits: the first 8 bytes of the SHA-256 of their JSON.
   * Equal settings have equal versions on every process (the JSON of a record is written in the
   * order of its components).
   */
  public String version() {
    try {
      byte[] digest =
          java.security.MessageDigest.getInstance("SHA-256")
              .digest(dev.trainyard.common.json.Json.mapper().writeValueAsBytes(this));
      return java.util.HexFormat.of().formatHex(digest, 0, 8);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private static <T> T or(T patched, T current) {
    return patched != null ? patched : current;
  }
}
