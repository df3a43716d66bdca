package dev.trainyard.worker.store;

import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import dev.trainyard.common.store.StoreIndexes.Declared;
import dev.trainyard.common.view.Collections;
import java.util.List;
import org.bson.Document;

/** The indexes of the collections the worker writes, each with the queries it serves. */
public final class WorkerIndexes {
  public static final List<Declared> DECLARED =
      List.of(
          new Declared(
              Collections.QUEUES,
              Indexes.ascending("nextDeadline"),
              new IndexOptions().sparse(true),
              "the ticker: queues with a deadline due"),
          new Declared(
              Collections.QUEUES,
              Indexes.ascending("activeEntries"),
              new IndexOptions()
                  .partialFilterExpression(new Document("activeEntries", new Document("$gt", 0))),
              "the source-host poller: queues holding pull requests (few of all queues)"),
          new Declared(
              Collections.QUEUES,
              Indexes.ascending("waitingSince"),
              new IndexOptions().sparse(true),
              "the stall watch: queues whose ready pull requests wait without progress"),
          new Declared(
              Collections.QUEUES,
              Indexes.ascending("effectsPending"),
              new IndexOptions().partialFilterExpression(new Document("effectsPending", true)),
              "the effect sweep: queues whose state asks for effects"),
          new Declared(
              Collections.QUEUES,
              Indexes.ascending("org", "_id"),
              "the dashboard's overview: an organization's queues"),
          new Declared(
              Collections.QUEUE_ENTRIES,
              Indexes.ascending("queue", "version"),
              "a queue's entry documents"),
          new Declared(
              Collections.PULL_REQUESTS,
              Indexes.compoundIndex(
                  Indexes.ascending("queueKey"),
                  Indexes.descending("stateChangedAt"),
                  Indexes.ascending("prId")),
              "listPullRequests: a queue's history, newest first, by keyset"),
          new Declared(
              Collections.PULL_REQUESTS,
              Indexes.compoundIndex(
                  Indexes.ascending("queueKey", "state"),
                  Indexes.descending("stateChangedAt"),
                  Indexes.ascending("prId")),
              "listPullRequests filtered by state"),
          new Declared(
              Collections.PULL_REQUEST_HEADS,
              Indexes.compoundIndex(
                  Indexes.ascending("queueKey", "headBranch"), Indexes.descending("submittedAt")),
              "a branch's newest pull request"),
          new Declared(
              Collections.PULL_REQUEST_HEADS,
              Indexes.compoundIndex(
                  Indexes.ascending("queueKey"), Indexes.descending("concludedAt")),
              "the dashboard: a queue's recent conclusions and its last hour"),
          new Declared(
              Collections.PULL_REQUEST_HEADS,
              Indexes.ascending("prNumber", "queueKey"),
              "the dashboard's search: an organization's PRs of one number"),
          new Declared(
              Collections.PULL_REQUEST_HEADS,
              Indexes.ascending("headBranch", "queueKey"),
              "the dashboard's search: an organization's PRs from one branch"),
          new Declared(
              Collections.PULL_REQUESTS,
              Indexes.ascending("prId", "fromVersion"),
              "the dashboard's PR page: one submission's timeline"),
          new Declared(
              Collections.TEST_RUNS,
              Indexes.ascending("queueKey", "details.testedPullRequests.prNumber"),
              "the dashboard's PR page: the runs that tested a PR"),
          new Declared(
              Collections.TEST_RUNS,
              Indexes.compoundIndex(
                  Indexes.ascending("queueKey"), Indexes.descending("concludedAt")),
              "getMergeQueueMetrics: a queue's runs that ended in the last hour"),
          new Declared(
              Collections.TEST_RUNS,
              Indexes.compoundIndex(
                  Indexes.ascending("queueKey"), Indexes.descending("details.createdAt")),
              "getMergeQueueMetrics and testing details: a queue's runs by start"),
          Declared.expiring(
              Collections.COMMAND_ANSWERS,
              "at",
              // an hour past the window: a command sent within it always finds its answer
              StoredQueue.RECENT_WINDOW.plusHours(1),
              "the answers to commands, dropped after the deduplication window"),
          new Declared(
              Collections.DEAD_COMMANDS,
              Indexes.ascending("at", "_id"),
              "/admin/v1/listDeadCommands, oldest first"));

  private WorkerIndexes() {}
}
