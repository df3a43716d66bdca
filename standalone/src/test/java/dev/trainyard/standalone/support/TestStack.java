package dev.trainyard.standalone.support;

import dev.trainyard.standalone.TrainyardServices;
import dev.trainyard.worker.processing.ProcessingProbe;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Infrastructure plus the worker and gateway, started the way the standalone starts them, with an
 * admin token and a bootstrap organization whose token the tests use.
 */
public final class TestStack implements Stack {
  public static final String ORG = "acme-org";
  private static TestStack shared;

  private final Infrastructure infrastructure;
  private final TrainyardServices services;
  private final String adminToken = "admin-" + UUID.randomUUID();
  private final String token = "token-" + UUID.randomUUID();

  private final Map<String, Object> overrides;

  @SafeVarargs
  private TestStack(
      Infrastructure infrastructure,
      Map<String, Object> overrides,
      ApplicationContextInitializer<ConfigurableApplicationContext>... workerInitializers) {
    this.infrastructure = infrastructure;
    this.overrides = Map.copyOf(overrides);
    this.services = TrainyardServices.start(properties(), workerInitializers);
  }

  @SafeVarargs
  public static TestStack start(
      Supplier<Infrastructure> infrastructure,
      ApplicationContextInitializer<ConfigurableApplicationContext>... workerInitializers) {
    return start(infrastructure, Map.of(), workerInitializers);
  }

  /** A stack whose services run with {@code overrides} on top of the test defaults. */
  @SafeVarargs
  public static TestStack start(
      Supplier<Infrastructure> infrastructure,
      Map<String, Object> overrides,
      ApplicationContextInitializer<ConfigurableApplicationContext>... workerInitializers) {
    return new TestStack(infrastructure.get(), overrides, workerInitializers);
  }

  /** Gives the worker {@code clock} instead of the system clock. */
  public static ApplicationContextInitializer<ConfigurableApplicationContext> clock(
      TestClock clock) {
    return context -> context.getBeanFactory().registerSingleton("clock", clock);
  }

  /** Registers {@code probe} as the worker's processing probe (fault injection). */
  public static ApplicationContextInitializer<ConfigurableApplicationContext> probe(
      ProcessingProbe probe) {
    return context -> context.getBeanFactory().registerSingleton("processingProbe", probe);
  }

  /** One embedded stack for every test class that only reads and writes its own queues. */
  public static synchronized TestStack shared() {
    if (shared == null) {
      shared = start(EmbeddedInfrastructure::new);
      Runtime.getRuntime().addShutdownHook(new Thread(shared::close));
    }
    return shared;
  }

  private static final String WEBHOOK_KEY = dev.trainyard.common.webhook.SecretBox.newKey();
  private static final String FLAKY_TOKEN_KEY = "flaky-" + UUID.randomUUID() + UUID.randomUUID();
  private static final String FLAKY_INTERNAL_KEY =
      "internal-" + UUID.randomUUID() + UUID.randomUUID();

  /** The properties the services of this stack run with (a second worker reuses them). */
  public Map<String, Object> properties() {
    Map<String, Object> props =
        new HashMap<>(
            TrainyardServices.connection(
                infrastructure.kafkaBootstrap(), infrastructure.mongoUri()));
    props.put("server.port", 0);
    props.put(TrainyardServices.MANAGEMENT_PORT, 0);
    props.put("trainyard.admin-token", adminToken);
    props.put("trainyard.bootstrap.org", ORG);
    props.put("trainyard.bootstrap.token", token);
    props.put("trainyard.worker.tick-interval", "200ms");
    props.put("trainyard.worker.command-partitions", 6);
    props.put("trainyard.scm.poll-interval", "200ms");
    // suites time merges, not the plain-git settle time; StatusSettleIT sets its own
    props.put("trainyard.status-settle", "0s");
    props.put("trainyard.webhook.key", WEBHOOK_KEY);
    props.put("trainyard.webhook.allow-loopback", true);
    props.put("trainyard.webhook.allow-http", true);
    props.put("trainyard.git.allow-loopback", true);
    props.put("trainyard.git.cache", GitHost.newRoot().toString());
    props.put("trainyard.github.webhook-secret", "github-webhook-secret-" + UUID.randomUUID());
    props.put("trainyard.webhook.retry-schedule", "300ms,300ms,300ms,300ms,300ms,300ms,300ms");
    props.put("trainyard.webhook.poll-interval", "100ms");
    props.put("trainyard.flaky.token-key", FLAKY_TOKEN_KEY);
    props.put("trainyard.flaky.internal-key", FLAKY_INTERNAL_KEY);
    // suites drive hundreds of requests a second from one organization; RateLimitIT sets its own
    props.put("trainyard.rate-limit-per-org", 0);
    props.putAll(overrides);
    return props;
  }

  @Override
  public Api api() {
    return Api.heldToDocument("http://127.0.0.1:" + services.gatewayPort(), token);
  }

  @Override
  public Api admin() {
    return Api.heldToDocument("http://127.0.0.1:" + services.gatewayPort(), adminToken);
  }

  public Infrastructure infrastructure() {
    return infrastructure;
  }

  public TrainyardServices services() {
    return services;
  }

  @Override
  public void close() {
    services.close();
    infrastructure.close();
  }
}
