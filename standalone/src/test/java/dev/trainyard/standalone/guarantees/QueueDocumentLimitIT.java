package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.view.Collections;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.QueueSteps;
import java.util.Map;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * No queue document grows past its limit, whatever clients send: the command that would grow it
 * further is answered 429 naming the limit and changes nothing, the queue still shrinks and then
 * grows again, and other queues are not affected. The limit is lowered to 48 KiB here so that a few
 * dozen PRs reach it (in production it is 8 MiB, half of MongoDB's 16 MiB).
 */
class QueueDocumentLimitIT extends OwnStack {
  private static final long LIMIT = 48 * 1024;

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
    for (long pr = 1; pr <= 500 && refusedPr == 0; pr++) {
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
    QueueSteps.submit(api, other, 1);
    assertThat(api.post("/v1/cancelPullRequest", prBody(full, 1)).status())
        .as("a full queue still shrinks")
        .isEqualTo(200);
    assertThat(api.post("/v1/submitPullRequest", prBody(full, refusedPr)).status())
        .as("and has room again")
        .isEqualTo(200);
    assertThat(largestQueueDocument()).isLessThanOrEqualTo(LIMIT);
  }

  private long largestQueueDocument() {
    MongoTemplate mongo = stack.services().workerContext().getBean(MongoTemplate.class);
    long largest = 0;
    for (RawBsonDocument doc :
        mongo.getCollection(Collections.QUEUES).withDocumentClass(RawBsonDocument.class).find()) {
      largest = Math.max(largest, doc.getByteBuffer().remaining());
    }
    return largest;
  }
}
