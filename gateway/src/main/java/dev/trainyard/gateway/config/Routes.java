package dev.trainyard.gateway.config;

import dev.trainyard.gateway.auth.AdminHandler;
import dev.trainyard.gateway.ci.CiHandler;
import dev.trainyard.gateway.flaky.FlakyTestsProxy;
import dev.trainyard.gateway.metrics.MetricsHandler;
import dev.trainyard.gateway.pulls.PullRequestHandler;
import dev.trainyard.gateway.queues.QueueHandler;
import dev.trainyard.gateway.scm.ScmHandler;
import dev.trainyard.gateway.webhooks.WebhookHandler;
import java.time.InstantSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Every endpoint of API.md §2, §3, §4, §5 and §6 (the flaky-tests ones are forwarded), in one
 * table, and the server's resources.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(GatewayProperties.class)
public class Routes {

  /**
   * Event loops of this context only: several services share one JVM in the standalone (and tests),
   * and closing one context must not stop another's server.
   */
  @Bean
  ReactorResourceFactory reactorResourceFactory() {
    ReactorResourceFactory factory = new ReactorResourceFactory();
    factory.setUseGlobalResources(false);
    return factory;
  }

  /** The gateway's clock: injected where time matters, so a test can move it. */
  @Bean
  InstantSource clock() {
    return InstantSource.system();
  }

  @Bean
  RouterFunction<ServerResponse> apiRoutes(
      PullRequestHandler pulls,
      QueueHandler queues,
      ScmHandler scm,
      CiHandler ci,
      WebhookHandler webhooks,
      FlakyTestsProxy flakyTests,
      MetricsHandler metrics,
      AdminHandler admin) {
    return RouterFunctions.route()
        .POST("/v1/submitPullRequest", pulls::submit)
        .POST("/v1/cancelPullRequest", pulls::cancel)
        .POST("/v1/restartTestsOnPullRequest", pulls::restart)
        .POST("/v1/getSubmittedPullRequest", pulls::get)
        .POST("/v1/setImpactedTargets", pulls::setImpactedTargets)
        .POST("/v1/getMergeQueueTestingDetails", pulls::testingDetails)
        .POST("/v1/listPullRequests", pulls::list)
        .POST("/v1/createQueue", queues::create)
        .POST("/v1/getQueue", queues::get)
        .POST("/v1/updateQueue", queues::update)
        .POST("/v1/deleteQueue", queues::delete)
        .GET("/v1/getMergeQueueMetrics", metrics::get)
        .POST("/v1/scm/git/notify", scm::gitNotify)
        .POST("/v1/ci/reportStatus", ci::reportStatus)
        .POST("/v1/webhooks/createEndpoint", webhooks::createEndpoint)
        .POST("/v1/webhooks/listEndpoints", webhooks::listEndpoints)
        .POST("/v1/webhooks/deleteEndpoint", webhooks::deleteEndpoint)
        .POST("/v1/webhooks/rotateSecret", webhooks::rotateSecret)
        .POST("/v1/webhooks/listDeliveries", webhooks::listDeliveries)
        .POST("/v1/webhooks/redeliver", webhooks::redeliver)
        .POST("/v1/flaky-tests/{operation}", flakyTests::forward)
        .POST("/admin/v1/createOrganization", admin::createOrganization)
        .POST("/admin/v1/createApiToken", admin::createApiToken)
        .POST("/admin/v1/revokeApiToken", admin::revokeApiToken)
        .build();
  }
}
