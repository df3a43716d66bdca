package dev.trainyard.standalone.guarantees;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.standalone.TrainyardServices;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.EmbeddedInfrastructure;
import dev.trainyard.standalone.support.ShowsLogOnFailure;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.worker.processing.ProcessingProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A mutation's reply reaches the gateway that waits for it: on a reply topic with another number of
 * partitions than any setting says, and while that gateway shuts down (a rollout, a scale-in) with
 * the request in flight.
 */
@ExtendWith(ShowsLogOnFailure.class)
class ReplyRoutingIT {

  /**
   * The workers made the reply topic with 7 partitions; the gateway reads what the topic has and
   * names its partition, so no reply lands where nobody reads (before: the gateway read partitions
   * 0..3 from its own setting and answered 503 for the replies hashed to 4..6). A lost reply is
   * lost whatever the timeout, so the timeout is generous: a slow machine's slow command (a
   * consumer group still settling) must not read as a lost reply.
   */
  @Test
  void everyReplyArrivesWhateverTheReplyTopicsPartitionCount() {
    try (TestStack stack =
        TestStack.start(
            EmbeddedInfrastructure::new,
            Map.of("trainyard.worker.reply-partitions", 7, "trainyard.reply-timeout", "15s"))) {
      Api api = stack.api();
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        statuses.add(
            api.post("/v1/createQueue", Api.body(Api.uniqueRepo(), "\"concurrency\":1")).status());
      }
      assertThat(statuses).containsOnly(200);
    }
  }

  /**
   * A second gateway is closed while a mutation it sent waits in the worker: the web server
   * finishes the request, and the reply consumer still runs until it has (before: it stopped first,
   * and the applied command was answered 503).
   */
  @Test
  void aGatewayShuttingDownStillAnswersTheMutationsInFlight() throws Exception {
    CountDownLatch decided = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    String repo = Api.uniqueRepo();
    ProcessingProbe holdOne =
        new ProcessingProbe() {
          @Override
          public void afterStore(CommandEnvelope envelope) {}

          @Override
          public void beforeDecide(CommandEnvelope envelope) {
            if (envelope.command() instanceof QueueCommand.CreateQueue
                && envelope.queue().repo().name().equals(repo)) {
              decided.countDown();
              await(release);
            }
          }
        };
    try (TestStack stack = TestStack.start(EmbeddedInfrastructure::new, TestStack.probe(holdOne))) {
      ConfigurableApplicationContext second = TrainyardServices.gateway(stack.properties());
      Api api =
          new Api(
              "http://127.0.0.1:"
                  + second.getEnvironment().getRequiredProperty("local.server.port"),
              stack.api().token());
      CompletableFuture<Api.Response> inFlight =
          CompletableFuture.supplyAsync(
              () -> api.post("/v1/createQueue", Api.body(repo, "\"concurrency\":1")));
      assertThat(decided.await(10, TimeUnit.SECONDS)).as("the command reached the worker").isTrue();

      CompletableFuture<Void> closing = CompletableFuture.runAsync(second::close);
      Thread.sleep(1_000); // the close is under way: the server waits for the request in flight
      release.countDown();

      assertThat(inFlight.get(20, TimeUnit.SECONDS).status()).isEqualTo(200);
      closing.get(30, TimeUnit.SECONDS);
    } finally {
      release.countDown();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
