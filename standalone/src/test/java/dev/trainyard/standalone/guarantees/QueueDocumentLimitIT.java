package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.view.Collections;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.QueueSteps;
import java.util.Map;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.codecs.DocumentCodec;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * No queue document grows past its limit (not counting the ids of the newest 1,024 commands, which
 * the refusal of a command itself adds to), whatever clients send: the command that would grow it
 * further is answered 429 naming the limit and changes nothing, the queue's PRs stay readable, and
 * other queues are not affected. Since waiting PRs live in entry documents of their own (ADR 0019),
 * a PR weighs some 14 bytes of its queue's document plus the id of the command that submitted it
 * (among the newest 1,024 remembered, not counted); the limit is lowered to 8 KiB here so that a
 * few hundred submits reach it (in production it is 8 MiB, half of MongoDB's 16 MiB, which no queue
 * reaches).
 */
class QueueDocumentLimitIT extends OwnStack {
  private static final long LIMIT = 8 * 1024;

  @Override
  protected Map<String, Object> properties() {
    return Map.of("trainyard.worker.max-queue-document-bytes", LIMIT);
  }

  @Test
  void aCommandThatWouldGrowAQueuePastItsLimitIsRefusedAndTheQueueGoesOn() {
    Api api = stack.api();
    String full = Api.uniqueRepo();
    String other = Api.uniqueRepo();
    QueueSteps.create(api, full, 2);
    QueueSteps.create(api, other, 2);

    long refusedPr = 0;
    for (long pr = 1; pr <= 1_000 && refusedPr == 0; pr++) {
      Api.Response submit = api.post("/v1/submitPullRequest", prBody(full, pr));
      if (submit.status() == 429) {
        assertThat(submit.body()).contains("bytes one queue may hold");
        refusedPr = pr;
      } else {
        assertThat(submit.status()).as(submit.body()).isEqualTo(200);
      }
    }

    assertThat(refusedPr).as("the queue reached its limit").isGreaterThan(10);
    assertThat(api.post("/v1/getSubmittedPullRequest", prBody(full, refusedPr)).status())
        .as("the refused submit changed nothing")
        .isEqualTo(404);
    assertThat(largestQueueDocument()).isLessThanOrEqualTo(LIMIT);
    assertThat(api.post("/v1/getQueue", Api.body(full, "")).json().get("enqueuedPullRequests"))
        .as("every accepted PR is listed")
        .hasSize((int) refusedPr - 1);
    QueueSteps.submit(api, other, 1);
    assertThat(largestQueueDocument()).isLessThanOrEqualTo(LIMIT);
  }

  /** The largest queue document, not counting the remembered command ids (bounded on their own). */
  private long largestQueueDocument() {
    MongoTemplate mongo = stack.services().workerContext().getBean(MongoTemplate.class);
    long largest = 0;
    for (Document doc : mongo.getCollection(Collections.QUEUES).find()) {
      doc.remove("recent");
      largest =
          Math.max(
              largest, new RawBsonDocument(doc, new DocumentCodec()).getByteBuffer().remaining());
    }
    return largest;
  }
}
