package dev.trainyard.webhooks.config;

import dev.trainyard.common.boot.ListenerErrors;
import dev.trainyard.common.net.OutboundGuard;
import dev.trainyard.common.store.StoreIndexes;
import dev.trainyard.common.telemetry.Traces;
import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.common.webhook.WebhookDocuments;
import dev.trainyard.webhooks.delivery.DeliveryStore;
import dev.trainyard.webhooks.delivery.DeliveryTelemetry;
import dev.trainyard.webhooks.delivery.Dispatcher;
import dev.trainyard.webhooks.delivery.LogRetention;
import dev.trainyard.webhooks.delivery.RetrySchedule;
import dev.trainyard.webhooks.endpoints.EndpointStore;
import dev.trainyard.webhooks.intake.EventIntake;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.InstantSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.scheduling.annotation.EnableScheduling;

/** The dispatcher's beans: stores, the dispatcher and the event intake. */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
@EnableConfigurationProperties({DispatcherProperties.class, OutboundProperties.class})
public class DispatcherConfiguration {

  /**
   * The intake commits an event's offset only once its deliveries are stored: while the store is
   * down it pauses and retries, and never skips an event (at least once, as ADR 0008 needs).
   */
  @Bean
  CommonErrorHandler intakeErrorHandler() {
    return ListenerErrors.retryUntilStored();
  }

  @Bean
  @ConditionalOnMissingBean
  InstantSource clock() {
    return InstantSource.system();
  }

  /** The endpoints' and the delivery log's indexes, built off the start ({@link StoreIndexes}). */
  @Bean
  SmartInitializingSingleton webhookIndexes(MongoTemplate mongo) {
    return () ->
        StoreIndexes.ensureInBackground(
            StoreIndexes.Target.of(mongo.getDb()), WebhookDocuments.INDEXES);
  }

  @Bean
  EndpointStore endpointStore(MongoTemplate mongo) {
    return new EndpointStore(mongo);
  }

  @Bean
  DeliveryStore deliveryStore(MongoTemplate mongo) {
    return new DeliveryStore(mongo);
  }

  /** The delivery log kept to {@code TRAINYARD_WEBHOOK_LOG_RETENTION}. */
  @Bean
  LogRetention logRetention(
      DeliveryStore deliveries, DispatcherProperties props, InstantSource clock) {
    return new LogRetention(deliveries, clock, props.logRetention());
  }

  @Bean
  Dispatcher dispatcher(
      DeliveryStore deliveries,
      EndpointStore endpoints,
      DispatcherProperties props,
      OutboundProperties outbound,
      InstantSource clock,
      Traces traces,
      ObjectProvider<MeterRegistry> meters,
      @Value("${trainyard.webhook.previous-keys:}") String previousKeys) {
    if (props.key() == null) {
      throw new IllegalStateException(
          "trainyard.webhook.key (TRAINYARD_WEBHOOK_KEY) must hold the 32-byte base64 key that"
              + " encrypts endpoint secrets; the gateway needs the same one");
    }
    return new Dispatcher(
        deliveries,
        endpoints,
        new SecretBox(props.key(), SecretBox.previousKeys(previousKeys)),
        new OutboundGuard(
            OutboundGuard.Policy.webhooks(
                props.allowHttp(), props.allowLoopback(), outbound.allowedHosts()),
            OutboundGuard.Resolver.DNS),
        clock,
        new Dispatcher.Settings(
            RetrySchedule.parse(props.retrySchedule()),
            props.timeout(),
            props.maxInFlightPerEndpoint(),
            props.disableAfter(),
            props.lease()),
        new DeliveryTelemetry(traces, meters.getIfAvailable(SimpleMeterRegistry::new)));
  }

  @Bean
  EventIntake eventIntake(
      EndpointStore endpoints,
      DeliveryStore deliveries,
      Dispatcher dispatcher,
      InstantSource clock,
      DispatcherProperties props) {
    return new EventIntake(endpoints, deliveries, dispatcher, clock, props.publicUrl());
  }
}
