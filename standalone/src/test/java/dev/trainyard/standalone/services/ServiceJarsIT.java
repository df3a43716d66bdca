package dev.trainyard.standalone.services;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.EmbeddedInfrastructure;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster's topology on one machine: gateway, queue worker, webhook dispatcher and flaky-tests
 * service each from its own executable jar, as separate processes configured by environment
 * variables alone, against one broker and one store. Each answers its probes on its management
 * port, a request travels gateway → worker → gateway and gateway → flaky-tests service, and each
 * stops on SIGTERM.
 */
class ServiceJarsIT {
  @TempDir Path logs;

  @Test
  void eachServiceRunsFromItsOwnJarAndTogetherTheyServeTheApi() throws Exception {
    try (EmbeddedInfrastructure infrastructure = new EmbeddedInfrastructure()) {
      String token = "ty_" + UUID.randomUUID();
      Map<String, String> env = new HashMap<>();
      env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", infrastructure.kafkaBootstrap());
      env.put("SPRING_MONGODB_URI", infrastructure.mongoUri());
      env.put("TRAINYARD_ADMIN_TOKEN", "admin-" + UUID.randomUUID());
      env.put("TRAINYARD_BOOTSTRAP_ORG", "acme");
      env.put("TRAINYARD_BOOTSTRAP_TOKEN", token);
      env.put("TRAINYARD_WEBHOOK_KEY", SecretBox.newKey());
      env.put("TRAINYARD_FLAKY_TOKEN_KEY", "flaky-" + UUID.randomUUID() + UUID.randomUUID());
      env.put("TRAINYARD_FLAKY_INTERNAL_KEY", "internal-" + UUID.randomUUID() + UUID.randomUUID());
      int gatewayPort = freePort();
      int flakyPort = freePort();
      List<ServiceProcess> services = new ArrayList<>();
      try {
        // the worker creates the topics the others read
        services.add(ServiceProcess.start("queue-worker", env, freePort(), logs).awaitReady());
        services.add(ServiceProcess.start("webhook-dispatcher", env, freePort(), logs));
        services.add(
            ServiceProcess.start(
                "flaky-tests-service",
                with(env, "SERVER_PORT", Integer.toString(flakyPort)),
                freePort(),
                logs));
        Map<String, String> gatewayEnv = with(env, "SERVER_PORT", Integer.toString(gatewayPort));
        gatewayEnv.put("TRAINYARD_FLAKY_TESTS_URL", "http://127.0.0.1:" + flakyPort);
        services.add(ServiceProcess.start("gateway", gatewayEnv, freePort(), logs));
        services.forEach(ServiceProcess::awaitReady);
        for (ServiceProcess service : services) {
          assertThat(service.status("/actuator/prometheus")).as(service.name()).isEqualTo(200);
          assertThat(service.status("/actuator/health/liveness")).as(service.name()).isEqualTo(200);
        }

        Api api = new Api("http://127.0.0.1:" + gatewayPort, token);
        String repo = Api.uniqueRepo();
        assertThat(api.post("/v1/createQueue", Api.body(repo, "")).status()).isEqualTo(200);
        assertThat(api.post("/v1/submitPullRequest", Api.prBody(repo, 7)).status()).isEqualTo(200);
        Api.Response pr = api.post("/v1/getSubmittedPullRequest", Api.prBody(repo, 7));
        assertThat(pr.status()).isEqualTo(200);
        assertThat(pr.json().get("state").asString()).isEqualTo("not_ready");
        Api.Response flaky =
            api.post(
                "/v1/flaky-tests/list-unhealthy-tests",
                "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\""
                    + repo
                    + "\"},\"org_url_slug\":\"acme\",\"status\":\"FLAKY\","
                    + "\"page_query\":{\"page_size\":10}}");
        assertThat(flaky.status()).as(flaky.body()).isEqualTo(200);
      } finally {
        List<Boolean> stopped = new ArrayList<>();
        for (int i = services.size() - 1; i >= 0; i--) {
          stopped.add(services.get(i).stop());
        }
        for (ServiceProcess service : services) {
          service.close();
        }
        assertThat(stopped).as("each stops on SIGTERM within 30 s").doesNotContain(false);
      }
    }
  }

  @Test
  void aMissingOrMalformedSettingEndsTheServiceAtOnceWithOneLineNamingIt() throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9");
    env.put("SPRING_MONGODB_URI", "mongodb://127.0.0.1:9/trainyard");
    env.put("TRAINYARD_RATE_LIMIT_PER_ORG", "lots");
    try (ServiceProcess gateway = ServiceProcess.start("gateway", env, freePort(), logs)) {
      assertThat(gateway.exitCode(30)).as("exit code of a bad setting").isEqualTo(2);
      assertThat(gateway.output())
          .containsExactly(
              "trainyard gateway: TRAINYARD_RATE_LIMIT_PER_ORG is malformed: a whole number, 0 or"
                  + " more");
    }
    env.remove("TRAINYARD_RATE_LIMIT_PER_ORG");
    env.remove("SPRING_MONGODB_URI");
    try (ServiceProcess dispatcher =
        ServiceProcess.start("webhook-dispatcher", env, freePort(), logs)) {
      assertThat(dispatcher.exitCode(30)).isEqualTo(2);
      assertThat(dispatcher.output())
          .containsExactly(
              "trainyard dispatcher: SPRING_MONGODB_URI is not set: a MongoDB connection string,"
                  + " mongodb://... or mongodb+srv://...; TRAINYARD_WEBHOOK_KEY is not set: 32"
                  + " random bytes in base64 (e.g. `head -c32 /dev/urandom | base64`)");
    }
  }

  @Test
  void readinessIsDownWhileTheBrokerIsUnreachableAndLivenessStaysUp() throws Exception {
    try (EmbeddedInfrastructure infrastructure = new EmbeddedInfrastructure()) {
      Map<String, String> env = new HashMap<>();
      env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + freePort()); // nothing listens
      env.put("SPRING_MONGODB_URI", infrastructure.mongoUri());
      env.put("TRAINYARD_WEBHOOK_KEY", SecretBox.newKey());
      try (ServiceProcess dispatcher =
          ServiceProcess.start("webhook-dispatcher", env, freePort(), logs)) {
        dispatcher.awaitStatus("/actuator/health/liveness", 200);
        assertThat(dispatcher.status("/actuator/health/readiness"))
            .as("not ready without its broker")
            .isEqualTo(503);
      }
    }
  }

  private static Map<String, String> with(Map<String, String> env, String name, String value) {
    Map<String, String> copy = new HashMap<>(env);
    copy.put(name, value);
    return copy;
  }

  private static int freePort() {
    return dev.trainyard.standalone.infra.FreePorts.next();
  }
}
