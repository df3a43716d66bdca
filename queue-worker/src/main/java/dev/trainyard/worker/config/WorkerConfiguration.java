package dev.trainyard.worker.config;

import dev.trainyard.common.github.GithubClient;
import dev.trainyard.common.net.OutboundGuard;
import dev.trainyard.common.store.StoreIndexes;
import dev.trainyard.common.telemetry.ScmCalls;
import dev.trainyard.common.telemetry.Traces;
import dev.trainyard.common.topic.TopicNames;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.worker.effects.EffectRunner;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.QueueEngine;
import dev.trainyard.worker.processing.CommandProcessor;
import dev.trainyard.worker.processing.PollTelemetry;
import dev.trainyard.worker.processing.ProcessingProbe;
import dev.trainyard.worker.processing.Publisher;
import dev.trainyard.worker.processing.RetryFromTheLog;
import dev.trainyard.worker.projection.PublicEvents;
import dev.trainyard.worker.scm.HostLanes;
import dev.trainyard.worker.scm.MeteredScm;
import dev.trainyard.worker.scm.ScmProvider;
import dev.trainyard.worker.scm.ScmRouter;
import dev.trainyard.worker.scm.git.GitRemotes;
import dev.trainyard.worker.scm.git.GitScm;
import dev.trainyard.worker.scm.github.GithubBindings;
import dev.trainyard.worker.scm.github.GithubScm;
import dev.trainyard.worker.scm.github.PullRequestChecks;
import dev.trainyard.worker.scm.github.RunChecksReconciler;
import dev.trainyard.worker.signals.OwnedQueues;
import dev.trainyard.worker.signals.ScmPoller;
import dev.trainyard.worker.signals.ScmRefresher;
import dev.trainyard.worker.signals.Signals;
import dev.trainyard.worker.signals.StallWatch;
import dev.trainyard.worker.signals.TestResultsIntake;
import dev.trainyard.worker.signals.Ticker;
import dev.trainyard.worker.store.AnswerStore;
import dev.trainyard.worker.store.DeadCommandStore;
import dev.trainyard.worker.store.HistoryStore;
import dev.trainyard.worker.store.OutboxStore;
import dev.trainyard.worker.store.QueueCache;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.WorkerIndexes;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.jgit.lib.PersonIdent;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.util.unit.DataSize;

@Configuration(proxyBeanMethods = false)
@EnableScheduling
@EnableConfigurationProperties(WorkerProperties.class)
@Import(WorkerTopics.class)
public class WorkerConfiguration {

  /**
   * A failed poll is retried for as long as it takes (MongoDB or Kafka down must not drop an
   * accepted command), from the log, never in memory after its partitions moved ({@link
   * RetryFromTheLog}); the listeners skip records that cannot be parsed themselves.
   */
  @Bean
  CommonErrorHandler commandErrorHandler() {
    return new RetryFromTheLog();
  }

  /** The system clock, unless a test registered its own. */
  @Bean
  @ConditionalOnMissingBean
  InstantSource clock() {
    return InstantSource.system();
  }

  /** The commands queues could not apply, kept for an operator ({@code dead_commands}). */
  @Bean
  DeadCommandStore deadCommandStore(MongoTemplate mongo, ObjectProvider<MeterRegistry> meters) {
    return new DeadCommandStore(mongo, meters.getIfAvailable(SimpleMeterRegistry::new));
  }

  @Bean
  CommandProcessor commandProcessor(
      QueueStore store,
      OutboxStore outboxes,
      AnswerStore answers,
      HistoryStore history,
      DeadCommandStore deadCommands,
      ObjectProvider<MeterRegistry> meters,
      Traces traces,
      Publisher publisher,
      WorkerProperties props,
      InstantSource clock,
      ObjectProvider<ProcessingProbe> probe,
      ObjectProvider<ScmRefresher> refresher,
      ObjectProvider<EffectRunner> effects,
      ObjectProvider<PullRequestChecks> checks,
      OwnedQueues owned,
      TopicNames topics,
      // TRAINYARD_MAX_QUEUE_PRS: a top-level setting of API.md §6, not one of trainyard.worker.*
      @Value("${trainyard.max-queue-prs:" + QueueEngine.DEFAULT_MAX_QUEUE_PRS + "}")
          int maxQueuePrs,
      // TRAINYARD_STATUS_SETTLE (API.md §3 requiredStatuses): the plain-git rule's settle time
      @Value("${trainyard.status-settle:30s}") Duration statusSettle,
      QueueCache cache) {
    MeterRegistry meterRegistry = meters.getIfAvailable(SimpleMeterRegistry::new);
    return new CommandProcessor(
        store,
        outboxes,
        answers,
        history,
        deadCommands,
        publisher,
        new PublicEvents(props.publicUrl()),
        clock,
        probe.getIfAvailable(() -> ProcessingProbe.NONE),
        refresher.getIfAvailable(() -> ScmRefresher.NONE),
        afterStore(effects, checks),
        new QueueEngine(maxQueuePrs, statusSettle),
        new PollTelemetry(traces, meterRegistry, topics.commands()),
        owned.fence(),
        cache);
  }

  /**
   * The queues this worker wrote last: the command processor decides from them, and the source-host
   * poller reads them instead of the store. Bounded by the heap they hold ({@code
   * trainyard.worker.queue-cache-size}), not by their number.
   */
  @Bean
  QueueCache queueCache(@Value("${trainyard.worker.queue-cache-size:128MB}") DataSize size) {
    return new QueueCache(size.toBytes());
  }

  /**
   * What each stored queue goes to: the effect runner once it is stored, the GitHub checks once it
   * is published, when they exist. They depend on the processor, so they are looked up when the
   * first queue is stored, not when it is built — and then kept: a lookup per stored queue cost a
   * bean-factory search each time.
   */
  private static CommandProcessor.Afterwards afterStore(
      ObjectProvider<EffectRunner> effects, ObjectProvider<PullRequestChecks> checks) {
    Supplier<Optional<EffectRunner>> runner =
        SingletonSupplier.of(() -> Optional.ofNullable(effects.getIfAvailable()));
    Supplier<Optional<PullRequestChecks>> shown =
        SingletonSupplier.of(() -> Optional.ofNullable(checks.getIfAvailable()));
    return new CommandProcessor.Afterwards() {
      @Override
      public void stored(QueueAggregate state) {
        runner.get().ifPresent(r -> r.reconcile(state));
      }

      @Override
      public void published(QueueAggregate state) {
        shown.get().ifPresent(c -> c.observe(state));
      }
    };
  }

  /** What the worker does when its command partitions move ({@link CommandPartitions}). */
  @Bean
  ConsumerAwareRebalanceListener partitionsMoved(
      ObjectProvider<CommandProcessor> processor,
      OwnedQueues owned,
      ObjectProvider<EffectRunner> effects,
      WorkerProperties props,
      TopicNames topics,
      ApplicationEventPublisher events,
      ObjectProvider<KafkaListenerEndpointRegistry> registry) {
    return new CommandPartitions(
        topics.commands(),
        moved ->
            processor
                .getObject()
                .forgetCachedQueues(
                    moved.stream().map(TopicPartition::partition).collect(Collectors.toSet()),
                    owned::partitionOf),
        owned,
        given -> effects.ifAvailable(runner -> runner.release(given)),
        props::commandPartitions,
        events,
        registry);
  }

  /** The worker's gauges ({@link WorkerGauges}), once every bean they read exists. */
  @Bean
  SmartInitializingSingleton workerGauges(
      ObjectProvider<MeterRegistry> meters,
      OutboxStore outboxes,
      QueueStore queues,
      DeadCommandStore dead,
      CommandProcessor processor,
      KafkaListenerEndpointRegistry listeners,
      Ticker ticker,
      StallWatch stalls) {
    return () ->
        meters.ifAvailable(
            m -> {
              WorkerGauges.register(m, outboxes, queues, dead, processor, listeners, ticker);
              stalls.register(m);
            });
  }

  /** The worker's indexes, built off its start ({@link StoreIndexes}). */
  @Bean
  SmartInitializingSingleton workerIndexes(MongoTemplate mongo) {
    return () ->
        StoreIndexes.ensureInBackground(
            StoreIndexes.Target.of(mongo.getDb()), WorkerIndexes.DECLARED);
  }

  /** What the source-host adapters report of their calls. */
  @Bean
  ScmCalls scmCalls(ObjectProvider<MeterRegistry> meters) {
    return new ScmCalls(meters.getIfAvailable(SimpleMeterRegistry::new), Clock.systemUTC());
  }

  @Bean
  OwnedQueues ownedQueues(KafkaListenerEndpointRegistry registry, WorkerProperties props) {
    return new OwnedQueues(registry, props.commandPartitions());
  }

  @Bean
  Signals signals(
      KafkaTemplate<String, String> kafka, TopicNames topics, InstantSource clock, Traces traces) {
    return new Signals(kafka, topics, clock, traces);
  }

  @Bean
  TestResultsIntake testResultsIntake(MongoTemplate mongo, Signals signals) {
    return new TestResultsIntake(mongo, signals);
  }

  @Bean
  Ticker ticker(
      QueueStore store,
      OwnedQueues owned,
      Signals signals,
      InstantSource clock,
      ObjectProvider<MeterRegistry> meters) {
    return new Ticker(
        store, owned, signals, clock, meters.getIfAvailable(SimpleMeterRegistry::new));
  }

  @Bean
  StallWatch stallWatch(
      QueueStore store,
      OwnedQueues owned,
      InstantSource clock,
      @Value("${trainyard.worker.stalled-after:30m}") Duration stalledAfter) {
    return new StallWatch(store, owned::now, clock, stalledAfter);
  }

  /**
   * The git adapter: bare repositories under {@code TRAINYARD_GIT_ROOT} (when set) and the remotes
   * organizations registered, mirrored under {@code TRAINYARD_GIT_CACHE}; their credentials are
   * opened with {@code TRAINYARD_WEBHOOK_KEY}, their URLs pass the outbound address guard.
   */
  @Bean
  GitScm gitScm(
      MongoTemplate mongo,
      @Value("${trainyard.git.root:#{null}}") Path root,
      @Value("${trainyard.git.cache:#{null}}") Path cache,
      @Value("${trainyard.git.allow-loopback:false}") boolean allowLoopback,
      @Value("${trainyard.outbound.allowed-hosts:}") List<String> allowedHosts,
      @Value("${trainyard.webhook.key:#{null}}") String secretsKey,
      @Value("${trainyard.webhook.previous-keys:}") String previousKeys) {
    Path mirrors =
        cache != null
            ? cache
            : Path.of(System.getProperty("java.io.tmpdir"), "trainyard-git-cache");
    return new GitScm(
        root,
        mirrors,
        new GitRemotes(
            mongo.getCollection(Collections.GIT_REMOTES),
            secretsKey == null || secretsKey.isBlank()
                ? null
                : new SecretBox(secretsKey, SecretBox.previousKeys(previousKeys))),
        OutboundGuard.resolving(OutboundGuard.Policy.gitRemotes(allowLoopback, allowedHosts)),
        new PersonIdent("trainyard", "trainyard@localhost"));
  }

  /**
   * The GitHub App adapter, when {@code TRAINYARD_GITHUB_APP_ID} is set: its key from {@code
   * TRAINYARD_GITHUB_PRIVATE_KEY} or the file {@code TRAINYARD_GITHUB_PRIVATE_KEY_FILE}, GitHub (or
   * GitHub Enterprise Server) at {@code TRAINYARD_GITHUB_API_URL}. GitHub's tokens and JWTs run on
   * the system clock, whatever clock the engine is given.
   */
  @Bean
  @ConditionalOnProperty("trainyard.github.app-id")
  GithubScm githubScm(
      MongoTemplate mongo,
      ScmCalls calls,
      @Value("${trainyard.github.app-id}") String appId,
      @Value("${trainyard.github.private-key:}") String privateKey,
      @Value("${trainyard.github.private-key-file:}") String privateKeyFile,
      @Value("${trainyard.github.api-url:https://api.github.com}") URI apiUrl,
      @Value("${trainyard.github.host:github.com}") String host,
      @Value("${trainyard.github.writes-per-minute:80}") int writesPerMinute,
      @Value("${trainyard.github.writes-per-hour:500}") int writesPerHour)
      throws IOException {
    String pem =
        privateKey.isBlank() && !privateKeyFile.isBlank()
            ? Files.readString(Path.of(privateKeyFile))
            : privateKey;
    GithubClient client =
        GithubClient.create(apiUrl, appId, pem, InstantSource.system(), GithubClient.Sleeper.THREAD)
            .meteredBy(calls);
    return new GithubScm(
        client,
        host,
        new GithubBindings(mongo.getCollection(Collections.GITHUB_INSTALLATIONS)),
        InstantSource.system(),
        writesPerMinute,
        writesPerHour);
  }

  /** The {@code trainyard} check run and failure comments on the PRs of GitHub queues. */
  @Bean
  @ConditionalOnProperty("trainyard.github.app-id")
  PullRequestChecks pullRequestChecks(
      GithubScm github,
      WorkerProperties props,
      @Value("${trainyard.github.check-debounce:1m}") Duration debounce) {
    return new PullRequestChecks(
        github, InstantSource.system(), new PublicEvents(props.publicUrl()), debounce);
  }

  /** Reads the checks of GitHub runs still testing, for the deliveries GitHub lost. */
  @Bean
  @ConditionalOnProperty("trainyard.github.app-id")
  RunChecksReconciler runChecksReconciler(
      GithubScm github, QueueStore store, OwnedQueues owned, Signals signals) {
    return new RunChecksReconciler(github, store, owned, signals);
  }

  /** Every source host this worker reaches: the git adapter first, then the GitHub App. */
  @Bean
  @Primary
  ScmProvider scm(GitScm git, ObjectProvider<GithubScm> github, ScmCalls calls) {
    List<ScmProvider> providers = new ArrayList<>(List.of(MeteredScm.of(git, "git", calls)));
    github.ifAvailable(providers::add);
    return new ScmRouter(providers);
  }

  @Bean
  ScmPoller scmPoller(
      QueueStore store,
      QueueCache cache,
      OwnedQueues owned,
      Signals signals,
      ScmProvider scm,
      ObjectProvider<MeterRegistry> meters,
      @Value("${trainyard.scm.poll-threads-per-host:1}") int threadsPerHost) {
    return new ScmPoller(
        new ScmPoller.Queues(store, cache),
        owned,
        signals,
        scm,
        HostLanes.limits(threadsPerHost, ""),
        meters.getIfAvailable(SimpleMeterRegistry::new));
  }

  /** Carries out builds, merges and branch deletions for the queues of every source host. */
  @Bean
  EffectRunner effectRunner(
      ScmProvider scm,
      Signals signals,
      QueueStore store,
      OwnedQueues owned,
      InstantSource clock,
      Traces traces,
      ObjectProvider<MeterRegistry> meters,
      @Value("${trainyard.worker.effect-patience:30s}") Duration patience,
      @Value("${trainyard.worker.effect-threads-per-host:2}") int threadsPerHost,
      @Value("${trainyard.worker.effect-threads-by-host:}") String threadsByHost) {
    return new EffectRunner(
        scm,
        signals::send,
        store,
        owned,
        clock,
        patience,
        HostLanes.limits(threadsPerHost, threadsByHost),
        traces,
        meters.getIfAvailable(SimpleMeterRegistry::new));
  }
}
