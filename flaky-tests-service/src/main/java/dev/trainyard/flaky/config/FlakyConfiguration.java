package dev.trainyard.flaky.config;

import dev.trainyard.common.boot.ContextEventLoops;
import dev.trainyard.common.flaky.RequestProof;
import dev.trainyard.common.store.StoreIndexes;
import dev.trainyard.common.topic.TopicNames;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.events.EventPublisher;
import dev.trainyard.flaky.http.ErrorHandler;
import dev.trainyard.flaky.http.GatewayProof;
import dev.trainyard.flaky.http.SeenNonces;
import dev.trainyard.flaky.ingest.IngestMeters;
import dev.trainyard.flaky.ingest.Ingestion;
import dev.trainyard.flaky.ingest.Reevaluation;
import dev.trainyard.flaky.ingest.ResultStore;
import dev.trainyard.flaky.ingest.StatusWrites;
import dev.trainyard.flaky.ingest.UploadHandler;
import dev.trainyard.flaky.ingest.UploadStore;
import dev.trainyard.flaky.listing.ListHandler;
import dev.trainyard.flaky.listing.TestCaseHandler;
import dev.trainyard.flaky.owners.GitCodeowners;
import dev.trainyard.flaky.quarantine.QuarantineHandler;
import dev.trainyard.flaky.repo.RepoSettingsHandler;
import dev.trainyard.flaky.repo.RepoSettingsStore;
import dev.trainyard.flaky.store.FlakyIndexes;
import dev.trainyard.flaky.tickets.TicketHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.InstantSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/** The service's beans and its route table. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(FlakyProperties.class)
@EnableScheduling
public class FlakyConfiguration {
  private static final int MIN_KEY = 32;

  @Bean
  @ConditionalOnMissingBean
  InstantSource clock() {
    return InstantSource.system();
  }

  /** Event loops of this context only (several services share one JVM in the standalone). */
  @Bean
  ReactorResourceFactory reactorResourceFactory() {
    return ContextEventLoops.resources();
  }

  @Bean
  ErrorHandler errorHandler() {
    return new ErrorHandler();
  }

  @Bean
  TestCaseStore testCaseStore(MongoTemplate mongo) {
    return new TestCaseStore(mongo);
  }

  @Bean
  RepoSettingsStore repoSettingsStore(MongoTemplate mongo) {
    return new RepoSettingsStore(mongo);
  }

  @Bean
  EventPublisher eventPublisher(KafkaTemplate<String, String> kafka, TopicNames topics) {
    return new EventPublisher(kafka, topics);
  }

  @Bean
  GitCodeowners gitCodeowners(@Value("${trainyard.git.root:}") String gitRoot) {
    return gitRoot.isEmpty() ? GitCodeowners.none() : GitCodeowners.under(Path.of(gitRoot));
  }

  @Bean
  IngestMeters ingestMeters(ObjectProvider<MeterRegistry> meters) {
    return new IngestMeters(meters.getIfAvailable(SimpleMeterRegistry::new));
  }

  @Bean
  StatusWrites statusWrites(
      TestCaseStore cases,
      EventPublisher events,
      InstantSource clock,
      FlakyProperties props,
      IngestMeters meters) {
    return new StatusWrites(cases, events, clock, props.publicUrl(), meters);
  }

  @Bean
  UploadStore uploadStore(MongoTemplate mongo) {
    return new UploadStore(mongo);
  }

  @Bean
  Ingestion ingestion(
      MongoTemplate mongo,
      UploadStore uploads,
      RepoSettingsStore settings,
      GitCodeowners git,
      StatusWrites writes,
      InstantSource clock) {
    return new Ingestion(new ResultStore(mongo), uploads, settings, git, writes, clock);
  }

  @Bean
  Reevaluation reevaluation(
      TestCaseStore cases,
      UploadStore uploads,
      Ingestion ingestion,
      RepoSettingsStore settings,
      GitCodeowners git,
      StatusWrites writes,
      EventPublisher events,
      InstantSource clock,
      FlakyProperties props,
      IngestMeters meters) {
    return new Reevaluation(
        cases, uploads, ingestion, settings, git, writes, events, clock, props.retention(), meters);
  }

  /** The service's indexes, built off its start ({@link StoreIndexes}). */
  @Bean
  SmartInitializingSingleton flakyIndexes(MongoTemplate mongo, FlakyProperties props) {
    return () ->
        StoreIndexes.ensureInBackground(
            StoreIndexes.Target.of(mongo.getDb()), FlakyIndexes.declared(props.retention()));
  }

  /** Only the gateway may speak for an organization: each request carries its single-use proof. */
  @Bean
  GatewayProof gatewayProof(FlakyProperties props, MongoTemplate mongo, InstantSource clock) {
    String key =
        requireSecret(
            props.internalKey(),
            "trainyard.flaky.internal-key (TRAINYARD_FLAKY_INTERNAL_KEY)",
            "the same the gateway signs each forwarded request with");
    return new GatewayProof(new RequestProof(key, clock), new SeenNonces(mongo, clock));
  }

  @Bean
  RouterFunction<ServerResponse> flakyRoutes(
      Ingestion ingestion,
      TestCaseStore cases,
      RepoSettingsStore settings,
      EventPublisher events,
      InstantSource clock,
      FlakyProperties props,
      IngestMeters meters) {
    byte[] key =
        requireSecret(
                props.tokenKey(),
                "trainyard.flaky.token-key (TRAINYARD_FLAKY_TOKEN_KEY)",
                "that signs page tokens; every replica needs the same one")
            .getBytes(StandardCharsets.UTF_8);
    QuarantineHandler quarantine =
        new QuarantineHandler(cases, settings, events, clock, props.publicUrl());
    UploadHandler uploads = new UploadHandler(ingestion, meters, cases, quarantine);
    ListHandler list = new ListHandler(cases, settings, key, props.publicUrl(), clock);
    TicketHandler tickets = new TicketHandler(cases);
    TestCaseHandler testCases = new TestCaseHandler(cases, settings, props.publicUrl(), clock);
    RepoSettingsHandler repos = new RepoSettingsHandler(settings);
    return RouterFunctions.route()
        .POST("/v1/flaky-tests/upload", uploads::upload)
        .POST("/v1/flaky-tests/list-unhealthy-tests", list::list)
        .POST("/v1/flaky-tests/get-test-case", testCases::get)
        .POST("/v1/flaky-tests/get-quarantine-config", quarantine::config)
        .POST("/v1/flaky-tests/set-quarantine-setting", quarantine::set)
        .POST("/v1/flaky-tests/link-ticket-to-test-case", tickets::link)
        .POST("/v1/flaky-tests/update-repo-settings", repos::update)
        .build();
  }

  /**
   * {@code value} when it holds at least {@link #MIN_KEY} characters; the start fails otherwise.
   */
  private static String requireSecret(String value, String property, String purpose) {
    if (value == null || value.length() < MIN_KEY) {
      throw new IllegalStateException(
          property + " must hold a secret of at least " + MIN_KEY + " characters, " + purpose);
    }
    return value;
  }
}
