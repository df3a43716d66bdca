package dev.trainyard.common.boot;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Registers {@link BrokerHealth} as {@code broker} and {@link StoreHealth} as {@code store} in
 * every service; {@code trainyard-management.properties} puts both in the readiness group. A
 * context with both MongoDB clients (the gateway's reactive one beside a sync one, as in the
 * standalone) gets one store check: whichever client registers first. With a meter registry, both
 * are also the gauges of {@link DependencyGauges}.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration",
      "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration",
      "org.springframework.boot.mongodb.autoconfigure.MongoReactiveAutoConfiguration"
    })
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
public class ProcessHealthConfiguration {

  @Bean
  @ConditionalOnBean(KafkaAdmin.class)
  BrokerHealth brokerHealthIndicator(KafkaAdmin admin) {
    return new BrokerHealth(admin.getConfigurationProperties());
  }

  @Bean
  DependencyGauges dependencyGauges(
      ObjectProvider<MeterRegistry> meters,
      ObjectProvider<BrokerHealth> broker,
      ObjectProvider<StoreHealth> store) {
    Map<String, HealthIndicator> checks = new LinkedHashMap<>();
    broker.ifAvailable(b -> checks.put("broker", b));
    store.ifAvailable(s -> checks.put("store", s));
    MeterRegistry registry = meters.getIfUnique();
    return new DependencyGauges(registry, registry == null ? Map.of() : checks);
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "com.mongodb.client.MongoClient")
  @ConditionalOnBean(type = "com.mongodb.client.MongoClient")
  static class SyncStore {
    @Bean
    @ConditionalOnMissingBean(name = "storeHealthIndicator")
    StoreHealth storeHealthIndicator(com.mongodb.client.MongoClient client) {
      return new StoreHealth(client::getClusterDescription);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "com.mongodb.reactivestreams.client.MongoClient")
  @ConditionalOnBean(type = "com.mongodb.reactivestreams.client.MongoClient")
  static class ReactiveStore {
    @Bean
    @ConditionalOnMissingBean(name = "storeHealthIndicator")
    StoreHealth storeHealthIndicator(com.mongodb.reactivestreams.client.MongoClient client) {
      return new StoreHealth(client::getClusterDescription);
    }
  }
}
