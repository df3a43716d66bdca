package dev.trainyard.common.view;

/** MongoDB collection names shared by the writer (worker) and the readers (gateway). */
public final class Collections {
  /**
   * One aggregate document per queue (state, read-model view and the tags of its entry documents,
   * version, recent command ids). The outboxes of queue versions not yet published live in their
   * own collection ({@code outboxes}): while a queue names one, its newest history rows may be
   * incomplete, so listings read the version before.
   */
  public static final String QUEUES = "queues";

  /**
   * The waiting pull requests of every queue, one document per entry and written form (ADR 0019):
   * {@code _id} ({@link EntryTags#documentId}), {@code queue} (its id), {@code version} (the queue
   * version it was written for), {@code sequence}, {@code entry} (the worker's state), {@code item}
   * (its {@link PullRequestListItem}) and {@code rowVersion}. Only the documents the queue's {@code
   * entryTags} name are current; the others are superseded or from a write that lost its race.
   */
  public static final String QUEUE_ENTRIES = "queue_entries";

  /** Versioned rows of every submission ({@link PullRequestRow}). */
  public static final String PULL_REQUESTS = "pull_requests";

  /** The newest row of every (queue, PR number), by {@link PullRequestRow#headId}. */
  public static final String PULL_REQUEST_HEADS = "pull_request_heads";

  /**
   * Rows and events a queue version still has to publish; while the queue names one, its newest
   * history rows may be incomplete, so listings read the version before.
   */
  public static final String OUTBOXES = "outboxes";

  /**
   * The answer a queue gave to each command it handled (applied, rejected, a no-op, kept dead),
   * keyed by command id, for 24 h: a redelivery or a client's retry is answered from it, never
   * decided again.
   */
  public static final String COMMAND_ANSWERS = "command_answers";

  /** Impacted-target lists, chunked, keyed by content digest; too large for the aggregate. */
  public static final String IMPACTED_TARGETS = "impacted_targets";

  /** Test runs with their statuses ({@link TestRunDocument}). */
  public static final String TEST_RUNS = "test_runs";

  /** Webhook subscriptions ({@code WebhookEndpoint}): written by the gateway. */
  public static final String WEBHOOK_ENDPOINTS = "webhook_endpoints";

  /** The delivery log ({@code WebhookDelivery}): written by the webhook dispatcher. */
  public static final String WEBHOOK_DELIVERIES = "webhook_deliveries";

  /** Remote git repositories of organizations ({@code GitRemote}): written by the gateway. */
  public static final String GIT_REMOTES = "git_remotes";

  /** GitHub App installations and the organization each serves ({@code GithubInstallation}). */
  public static final String GITHUB_INSTALLATIONS = "github_installations";

  /** GitHub webhook deliveries already applied, by {@code X-GitHub-Delivery} (kept 7 days). */
  public static final String GITHUB_DELIVERIES = "github_deliveries";

  /**
   * Every name each GitHub repository (by GitHub's id) was delivered under: a queue created before
   * a rename or transfer still gets its deliveries.
   */
  public static final String GITHUB_REPOSITORIES = "github_repositories";

  /** Commands a queue could not apply ({@code DeadCommand}): written by the worker. */
  public static final String DEAD_COMMANDS = "dead_commands";

  private Collections() {}
}
