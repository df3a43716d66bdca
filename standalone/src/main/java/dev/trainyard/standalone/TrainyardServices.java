package dev.trainyard.standalone;

import dev.trainyard.flaky.FlakyTestsApplication;
import dev.trainyard.gateway.GatewayApplication;
import dev.trainyard.webhooks.WebhookDispatcherApplication;
import dev.trainyard.worker.WorkerApplication;
import dev.trainyard.worker.processing.CommandListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Starts the trainyard services as separate Spring contexts in this JVM, the way they run as
 * separate processes in a cluster: the worker first (it creates the topics), then the webhook
 * dispatcher, the flaky-tests service (on a free loopback port) and the gateway, which forwards
 * {@code /v1/flaky-tests/*} to it.
 */
public final class TrainyardServices implements AutoCloseable {
  /** The gateway's management port ({@code TRAINYARD_MANAGEMENT_PORT}; 0 = a free one). */
  public static final String MANAGEMENT_PORT = "trainyard.management-port";

  private static final Duration PARTITION_WAIT = Duration.ofSeconds(30);
  private final ConfigurableApplicationContext worker;
  private final ConfigurableApplicationContext gateway;
  private ConfigurableApplicationContext dispatcher;
  private ConfigurableApplicationContext flaky;

  private TrainyardServices(
      ConfigurableApplicationContext worker,
      ConfigurableApplicationContext gateway,
      ConfigurableApplicationContext dispatcher,
      ConfigurableApplicationContext flaky) {
    this.worker = worker;
    this.gateway = gateway;
    this.dispatcher = dispatcher;
    this.flaky = flaky;
  }

  /** Properties every service needs to reach Kafka and the document store. */
  public static Map<String, Object> connection(String kafkaBootstrap, String mongoUri) {
    Map<String, Object> props = new HashMap<>();
    props.put("spring.kafka.bootstrap-servers", kafkaBootstrap);
    props.put("spring.mongodb.uri", mongoUri);
    return props;
  }

  @SafeVarargs
  public static TrainyardServices start(
      Map<String, Object> properties,
      ApplicationContextInitializer<ConfigurableApplicationContext>... workerInitializers) {
    ConfigurableApplicationContext worker = worker(properties, workerInitializers);
    ConfigurableApplicationContext dispatcher = null;
    ConfigurableApplicationContext flaky = null;
    try {
      dispatcher = dispatcher(properties);
      flaky = flaky(properties);
      Map<String, Object> gatewayProperties = new HashMap<>(properties);
      gatewayProperties.put("trainyard.flaky-tests.url", "http://127.0.0.1:" + port(flaky));
      ConfigurableApplicationContext gateway = gateway(gatewayProperties);
      OneScrape.join(gateway, worker, dispatcher, flaky);
      return new TrainyardServices(worker, gateway, dispatcher, flaky);
    } catch (RuntimeException e) {
      if (flaky != null) {
        flaky.close();
      }
      if (dispatcher != null) {
        dispatcher.close();
      }
      worker.close();
      throw e;
    }
  }

  /**
   * The flaky-tests service on a free loopback port: only the gateway, which authenticates callers,
   * talks to it.
   */
  public static ConfigurableApplicationContext flaky(Map<String, Object> properties) {
    // command-line arguments outrank the environment: SERVER_PORT belongs to the gateway
    // its management endpoints too: on a free loopback port, not the gateway's
    return service(FlakyTestsApplication.class, "flaky", WebApplicationType.REACTIVE, properties)
        .run(
            "--server.port=0",
            "--server.address=127.0.0.1",
            "--management.server.port=0",
            "--management.server.address=127.0.0.1");
  }

  public ConfigurableApplicationContext flakyContext() {
    return flaky;
  }

  /** Stops the flaky-tests service (tests of the gateway's circuit breaker). */
  public void stopFlaky() {
    flaky.close();
  }

  private static int port(ConfigurableApplicationContext context) {
    return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
  }

  /** The webhook dispatcher (after the worker, which creates the events topic). */
  public static ConfigurableApplicationContext dispatcher(Map<String, Object> properties) {
    return service(
            WebhookDispatcherApplication.class, "dispatcher", WebApplicationType.NONE, properties)
        .run();
  }

  /** Stops the dispatcher as a crash would take it away, and starts a fresh one (tests). */
  public void restartDispatcher(Map<String, Object> properties) {
    dispatcher.close();
    dispatcher = dispatcher(properties);
  }

  public ConfigurableApplicationContext dispatcherContext() {
    return dispatcher;
  }

  @SafeVarargs
  public static ConfigurableApplicationContext worker(
      Map<String, Object> properties,
      ApplicationContextInitializer<ConfigurableApplicationContext>... initializers) {
    ConfigurableApplicationContext worker =
        service(WorkerApplication.class, "worker", WebApplicationType.NONE, properties)
            .initializers(initializers)
            .run();
    awaitPartitions(worker);
    return worker;
  }

  /**
   * Waits (bounded) until the worker's consumers hold partitions, so that the first command after
   * start is not answered 503 while the consumer group is still forming.
   */
  private static void awaitPartitions(ConfigurableApplicationContext worker) {
    MessageListenerContainer container =
        worker
            .getBean(KafkaListenerEndpointRegistry.class)
            .getListenerContainer(CommandListener.ID);
    long deadline = System.nanoTime() + PARTITION_WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      Collection<?> assigned = container == null ? null : container.getAssignedPartitions();
      if (assigned != null && !assigned.isEmpty()) {
        return;
      }
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
  }

  /**
   * The gateway; its management port, when {@code properties} name one, outranks a {@code
   * TRAINYARD_MANAGEMENT_PORT} of the environment (the standalone resolves {@code 0} to a port it
   * remembers).
   */
  public static ConfigurableApplicationContext gateway(Map<String, Object> properties) {
    Object management = properties.get(MANAGEMENT_PORT);
    String[] args =
        management == null
            ? new String[0]
            : new String[] {"--" + MANAGEMENT_PORT + "=" + management};
    return service(GatewayApplication.class, "gateway", WebApplicationType.REACTIVE, properties)
        .run(args);
  }

  /** One service's context: its own profile, no banner, stopped by whoever started it. */
  private static SpringApplicationBuilder service(
      Class<?> application,
      String profile,
      WebApplicationType web,
      Map<String, Object> properties) {
    return new SpringApplicationBuilder(application)
        .profiles(profile)
        .web(web)
        .bannerMode(Banner.Mode.OFF)
        .registerShutdownHook(false)
        .properties(properties);
  }

  public int gatewayPort() {
    return port(gateway);
  }

  /** The port of the gateway's management endpoints (Prometheus, info, health). */
  public int gatewayManagementPort() {
    return Integer.parseInt(gateway.getEnvironment().getRequiredProperty("local.management.port"));
  }

  public ConfigurableApplicationContext gatewayContext() {
    return gateway;
  }

  public ConfigurableApplicationContext workerContext() {
    return worker;
  }

  /**
   * Stops the gateway first (it stops taking requests and answers those in flight), then the other
   * three side by side: none of them waits for another, and each spends most of its stop waiting
   * (listener containers finishing a batch, event loops going quiet).
   */
  @Override
  public void close() {
    gateway.close();
    List<Thread> stopping = new ArrayList<>();
    for (ConfigurableApplicationContext context : List.of(flaky, dispatcher, worker)) {
      Thread thread = new Thread(context::close, "stop-" + context.getId());
      thread.start();
      stopping.add(thread);
    }
    try {
      for (Thread thread : stopping) {
        thread.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
