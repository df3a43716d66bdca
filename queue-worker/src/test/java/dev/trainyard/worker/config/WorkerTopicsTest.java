package dev.trainyard.worker.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.LeaderNotAvailableException;
import org.apache.kafka.common.errors.NotControllerException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkerTopicsTest {
  @ParameterizedTest(name = "{0} -> may wait: {1}")
  @CsvSource({
    "timeout, true",
    "no leader, true",
    "not the controller, true",
    "no ACL on the topic, false",
    "no ACL on the cluster, false",
    "a policy refuses, false",
    "an invalid config, false",
  })
  void aWorkerWaitsForABrokerAwayAndRefusesToStartOnARefusal(String failure, boolean mayWait) {
    Exception cause =
        switch (failure) {
          case "timeout" -> new TimeoutException("timed out waiting for a node assignment");
          case "no leader" -> new LeaderNotAvailableException("no leader");
          case "not the controller" -> new NotControllerException("moved");
          case "no ACL on the topic" -> new TopicAuthorizationException("denied");
          case "no ACL on the cluster" -> new ClusterAuthorizationException("denied");
          case "a policy refuses" -> new PolicyViolationException("no");
          case "an invalid config" -> new InvalidConfigurationException("no");
          default -> throw new IllegalArgumentException(failure);
        };
    assertThat(WorkerTopics.brokerAway(new ExecutionException(cause))).isEqualTo(mayWait);
  }
}
