package dev.trainyard.standalone;

import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.standalone.github.GithubAppCommand;
import dev.trainyard.standalone.infra.DocumentStore;
import dev.trainyard.standalone.infra.KafkaBroker;
import dev.trainyard.standalone.topology.Topology;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -jar trainyard-standalone.jar}: the whole of trainyard on one machine. Configured by
 * the environment of API.md §6 (TRAINYARD_DATA_DIR, SERVER_PORT, TRAINYARD_KAFKA_PORT,
 * TRAINYARD_MONGO_PORT, TRAINYARD_ADMIN_TOKEN, TRAINYARD_BOOTSTRAP_ORG, TRAINYARD_BOOTSTRAP_TOKEN,
 * TRAINYARD_GIT_ROOT; TRAINYARD_FLAKY_TOKEN_KEY and TRAINYARD_FLAKY_INTERNAL_KEY, generated and
 * remembered when unset).
 */
public final class StandaloneApplication {
  private StandaloneApplication() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("github-app")) {
      GithubAppCommand.main(java.util.Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0) {
      // the cluster's topology on one machine, and the processes it is made of
      Topology.main(args);
      return;
    }
    try {
      run(System.getenv());
    } catch (Exception e) {
      System.err.println("trainyard: could not start: " + e);
      e.printStackTrace();
      System.exit(1);
    }
  }

  private static void run(Map<String, String> env) throws Exception {
    DataDirectory data = new DataDirectory(Path.of(env.getOrDefault("TRAINYARD_DATA_DIR", "data")));
    int kafkaPort = data.port("kafka.port", intEnv(env, "TRAINYARD_KAFKA_PORT", 9092));
    int controllerPort = data.port("kafka.controller.port", 0);
    int mongoPort = data.port("mongo.port", intEnv(env, "TRAINYARD_MONGO_PORT", 27017));
    int serverPort = intEnv(env, "SERVER_PORT", 8080);
    int managementPort =
        data.port("management.port", intEnv(env, "TRAINYARD_MANAGEMENT_PORT", 8081));
    DataDirectory.Secret adminToken =
        data.secret("admin.token", env.get("TRAINYARD_ADMIN_TOKEN"), StandaloneApplication::token);
    String org = env.getOrDefault("TRAINYARD_BOOTSTRAP_ORG", "default");
    DataDirectory.Secret apiToken =
        data.secret(
            "bootstrap.token", env.get("TRAINYARD_BOOTSTRAP_TOKEN"), StandaloneApplication::token);

    DocumentStore store = DocumentStore.onDisk(data.resolve("mongo"), mongoPort);
    KafkaBroker kafka = KafkaBroker.start(data.resolve("kafka"), kafkaPort, controllerPort);
    Map<String, Object> props =
        TrainyardServices.connection(kafka.bootstrapServers(), store.uri("trainyard"));
    props.put("server.port", serverPort);
    props.put("trainyard.admin-token", adminToken.value());
    props.put("trainyard.bootstrap.org", org);
    props.put("trainyard.bootstrap.token", apiToken.value());
    props.put(TrainyardServices.MANAGEMENT_PORT, managementPort);
    props.put("trainyard.worker.public-url", "http://localhost:" + serverPort);
    Path gitRoot =
        Path.of(env.getOrDefault("TRAINYARD_GIT_ROOT", data.resolve("git").toString()))
            .toAbsolutePath();
    java.nio.file.Files.createDirectories(gitRoot);
    props.put("trainyard.git.root", gitRoot.toString());
    props.put(
        "trainyard.git.cache",
        Path.of(env.getOrDefault("TRAINYARD_GIT_CACHE", data.resolve("git-cache").toString()))
            .toAbsolutePath()
            .toString());
    // one machine, trying it out: remotes may be local git servers (API.md §6)
    props.put(
        "trainyard.git.allow-loopback", env.getOrDefault("TRAINYARD_GIT_ALLOW_LOOPBACK", "true"));
    props.put(
        "trainyard.webhook.key",
        data.secret("webhook.key", env.get("TRAINYARD_WEBHOOK_KEY"), SecretBox::newKey).value());
    // one machine, trying it out: webhooks may go to local receivers (API.md §6)
    props.put(
        "trainyard.webhook.allow-loopback",
        env.getOrDefault("TRAINYARD_WEBHOOK_ALLOW_LOOPBACK", "true"));
    props.put(
        "trainyard.webhook.allow-http", env.getOrDefault("TRAINYARD_WEBHOOK_ALLOW_HTTP", "true"));
    props.put("trainyard.webhook.public-url", "http://localhost:" + serverPort);
    props.put(
        "trainyard.flaky.token-key",
        data.secret(
                "flaky.token.key",
                env.get("TRAINYARD_FLAKY_TOKEN_KEY"),
                StandaloneApplication::token)
            .value());
    props.put("trainyard.flaky.public-url", "http://localhost:" + serverPort);
    props.put(
        "trainyard.flaky.internal-key",
        data.secret(
                "flaky.internal.key",
                env.get("TRAINYARD_FLAKY_INTERNAL_KEY"),
                StandaloneApplication::token)
            .value());
    TrainyardServices services;
    try {
      services = TrainyardServices.start(props);
    } catch (RuntimeException e) {
      kafka.close();
      store.close();
      throw e;
    }

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.out.println("trainyard: stopping");
                  services.close();
                  kafka.close();
                  store.close();
                  stopped.countDown();
                },
                "trainyard-shutdown"));
    System.out.printf(
        "%n trainyard is running: http://localhost:%d/v1%n"
            + "   organization: %s%n   API token:    %s%n   admin token:  %s%n"
            + "   management:   http://localhost:%d/actuator/prometheus%n"
            + "   data:         %s (Kafka on 127.0.0.1:%d, document store on 127.0.0.1:%d)%n"
            + "   git root:     %s (bare repositories at <organization>/<host>/<owner>/<name>.git)%n%n",
        services.gatewayPort(),
        org,
        shown(apiToken, "TRAINYARD_BOOTSTRAP_TOKEN", data),
        shown(adminToken, "TRAINYARD_ADMIN_TOKEN", data),
        services.gatewayManagementPort(),
        data.resolve("").toAbsolutePath(),
        kafkaPort,
        mongoPort,
        gitRoot);
    stopped.await();
  }

  /**
   * A token as the banner shows it: its value only at the start that generated it (API.md §6), so a
   * secret from the environment, or one printed before, never reaches a terminal or a log again.
   */
  private static String shown(DataDirectory.Secret secret, String variable, DataDirectory data) {
    return switch (secret.origin()) {
      case GENERATED_NOW -> secret.value();
      case GIVEN -> "(from " + variable + ")";
      case REMEMBERED -> "(generated at the first start; kept in " + data.file() + ")";
    };
  }

  private static int intEnv(Map<String, String> env, String name, int fallback) {
    String value = env.get(name);
    return value == null || value.isBlank() ? fallback : Integer.parseInt(value.trim());
  }

  private static String token() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return "ty_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
