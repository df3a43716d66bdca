package dev.trainyard.standalone.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.client.ApiClient;
import dev.trainyard.client.ApiException;
import dev.trainyard.client.api.PullRequestsApi;
import dev.trainyard.client.api.QueuesApi;
import dev.trainyard.client.model.CreateQueueRequest;
import dev.trainyard.client.model.GetSubmittedPullRequestRequest;
import dev.trainyard.client.model.GetSubmittedPullRequestRequestPr;
import dev.trainyard.client.model.ListPullRequestsRequest;
import dev.trainyard.client.model.PrNumber;
import dev.trainyard.client.model.PrState;
import dev.trainyard.client.model.PullRequest;
import dev.trainyard.client.model.PullRequestListItem;
import dev.trainyard.client.model.PullRequestNumberRef;
import dev.trainyard.client.model.QueueRef;
import dev.trainyard.client.model.Repo;
import dev.trainyard.client.model.SubmitPullRequestRequest;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.TestStack;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A Java client generated from {@code docs/openapi.yaml} during the build (OpenAPI Generator,
 * {@code java}/{@code native}) works against the standalone as integrators would use it: the
 * document is complete enough to generate from, and what the server answers deserialises into the
 * types the document promises.
 */
class GeneratedClientIT {
  private final TestStack stack = TestStack.shared();

  private ApiClient client(String token) {
    Api api = stack.api();
    ApiClient client = new ApiClient();
    client.updateBaseUri(api.base());
    client.setRequestInterceptor(request -> request.header("x-api-token", token));
    return client;
  }

  @Test
  void aGeneratedClientSubmitsAPullRequestReadsItBackAndListsTheQueue() throws Exception {
    ApiClient client = client(stack.api().token());
    QueuesApi queues = new QueuesApi(client);
    PullRequestsApi pulls = new PullRequestsApi(client);
    Repo repo = new Repo().host("github.com").owner("acme").name(Api.uniqueRepo());

    queues.createQueue(new CreateQueueRequest().repo(repo).targetBranch("main"), null);
    pulls.submitPullRequest(
        new SubmitPullRequestRequest()
            .repo(repo)
            .targetBranch("main")
            .pr(new PullRequestNumberRef().number(new PrNumber(7))),
        UUID.randomUUID().toString());
    pulls.submitPullRequest(
        new SubmitPullRequestRequest()
            .repo(repo)
            .targetBranch("main")
            .pr(new PullRequestNumberRef().number(new PrNumber("8"))),
        null);

    PullRequest seven =
        pulls.getSubmittedPullRequest(
            new GetSubmittedPullRequestRequest()
                .repo(repo)
                .targetBranch("main")
                .pr(new GetSubmittedPullRequestRequestPr().number(new PrNumber(7))));
    assertThat(seven.getPrNumber()).isEqualTo(7L);
    assertThat(seven.getId()).isNotNull();
    assertThat(seven.getState()).isIn(PrState.NOT_READY, PrState.PENDING);
    assertThat(seven.getIsCurrentlySubmittedToQueue()).isTrue();

    var page =
        pulls.listPullRequests(
            new ListPullRequestsRequest().repo(repo).targetBranch("main").take(10));
    assertThat(page.getPullRequests())
        .extracting(PullRequestListItem::getPrNumber)
        .containsExactlyInAnyOrder(7L, 8L);
    assertThat(
            queues
                .getQueue(new QueueRef().repo(repo).targetBranch("main"))
                .getEnqueuedPullRequests())
        .extracting(PullRequestListItem::getId)
        .contains(seven.getId());
  }

  @Test
  void theGeneratedClientSeesTheDocumentedErrors() {
    Repo absent = new Repo().host("github.com").owner("acme").name(Api.uniqueRepo());
    PullRequestsApi pulls = new PullRequestsApi(client(stack.api().token()));
    PullRequestsApi stranger = new PullRequestsApi(client("not-a-token"));
    SubmitPullRequestRequest submit =
        new SubmitPullRequestRequest()
            .repo(absent)
            .targetBranch("main")
            .pr(new PullRequestNumberRef().number(new PrNumber(1)));

    assertThatThrownBy(() -> pulls.submitPullRequest(submit, null))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(404);
              assertThat(e.getResponseBody()).contains("no queue exists");
            });
    assertThatThrownBy(() -> stranger.submitPullRequest(submit, null))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(401));
  }
}
