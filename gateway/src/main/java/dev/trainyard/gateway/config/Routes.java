package dev.trainyard.gateway.config;

import dev.trainyard.common.boot.ContextEventLoops;
import dev.trainyard.gateway.audit.AuditHandler;
import dev.trainyard.gateway.audit.AuditTrail;
import dev.trainyard.gateway.auth.Access;
import dev.trainyard.gateway.auth.AdminHandler;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.auth.SecuredRoutes;
import dev.trainyard.gateway.ci.CiHandler;
import dev.trainyard.gateway.commands.DeadCommandsHandler;
import dev.trainyard.gateway.docs.ApiDescription;
import dev.trainyard.gateway.flaky.FlakyTestsProxy;
import dev.trainyard.gateway.health.HealthHandler;
import dev.trainyard.gateway.idempotency.IdempotencyKeys;
import dev.trainyard.gateway.metrics.MetricsHandler;
import dev.trainyard.gateway.pulls.PullRequestHandler;
import dev.trainyard.gateway.queues.QueueHandler;
import dev.trainyard.gateway.scm.GitRemoteHandler;
import dev.trainyard.gateway.scm.ScmHandler;
import dev.trainyard.gateway.scm.github.GithubAdminHandler;
import dev.trainyard.gateway.scm.github.GithubWebhookHandler;
import dev.trainyard.gateway.ui.Assets;
import dev.trainyard.gateway.ui.Dashboard;
import dev.trainyard.gateway.ui.DashboardActions;
import dev.trainyard.gateway.ui.OrgPages;
import dev.trainyard.gateway.ui.Pages;
import dev.trainyard.gateway.ui.SignIn;
import dev.trainyard.gateway.ui.SsoSignIn;
import dev.trainyard.gateway.webhooks.WebhookHandler;
import java.time.InstantSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Every endpoint of API.md §2, §3, §4, §5, §6 and §9 (the flaky-tests ones are forwarded) and the
 * dashboard's pages (§8), in one table, and the server's resources.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(GatewayProperties.class)
public class Routes {

  /** Event loops of this context only (several services share one JVM in the standalone). */
  @Bean
  ReactorResourceFactory reactorResourceFactory() {
    return ContextEventLoops.resources();
  }

  /** The gateway's clock: injected where time matters, so a test can move it. */
  @Bean
  InstantSource clock() {
    return InstantSource.system();
  }

  /** Every endpoint with the access it demands; nothing is routed any other way. */
  @Bean
  SecuredRoutes.Table apiRouteTable(
      RouteGuard guard,
      IdempotencyKeys idempotencyKeys,
      PullRequestHandler pulls,
      QueueHandler queues,
      ScmHandler scm,
      GitRemoteHandler remotes,
      GithubWebhookHandler github,
      GithubAdminHandler githubAdmin,
      CiHandler ci,
      WebhookHandler webhooks,
      FlakyTestsProxy flakyTests,
      MetricsHandler metrics,
      AdminHandler admin,
      DeadCommandsHandler deadCommands,
      SecretsReseal reseal,
      ApiDescription description,
      HealthHandler health,
      Pages pages,
      SignIn signIn,
      SsoSignIn sso,
      Dashboard dashboard,
      OrgPages orgPages,
      DashboardActions actions,
      Assets assets,
      AuditTrail auditTrail,
      AuditHandler audit) {
    Access org = Access.ORGANIZATION;
    Access session = Access.SESSION;
    HttpMethod get = HttpMethod.GET;
    HttpMethod post = HttpMethod.POST;
    return new SecuredRoutes(guard, idempotencyKeys, pages.errors(), auditTrail)
        .post("/v1/submitPullRequest", org, pulls::submit)
        .post("/v1/cancelPullRequest", org, pulls::cancel)
        .post("/v1/restartTestsOnPullRequest", org, pulls::restart)
        .post("/v1/getSubmittedPullRequest", org, pulls::get)
        .post("/v1/setImpactedTargets", org, pulls::setImpactedTargets)
        .post("/v1/getMergeQueueTestingDetails", org, pulls::testingDetails)
        .post("/v1/listPullRequests", org, pulls::list)
        .post("/v1/createQueue", org, queues::create)
        .post("/v1/getQueue", org, queues::get)
        .post("/v1/updateQueue", org, queues::update)
        .post("/v1/deleteQueue", org, queues::delete)
        .post("/v1/freezeQueue", org, queues::freeze)
        .post("/v1/unfreezeQueue", org, queues::unfreeze)
        .get("/v1/getMergeQueueMetrics", org, metrics::get)
        .post("/v1/scm/git/notify", org, scm::gitNotify)
        .post("/v1/scm/git/setRemote", org, remotes::setRemote)
        .post("/v1/scm/git/getRemote", org, remotes::getRemote)
        .post("/v1/scm/git/deleteRemote", org, remotes::deleteRemote)
        .post("/v1/scm/github/webhook", Access.PUBLIC, github::receive)
        .post("/v1/ci/reportStatus", org, ci::reportStatus)
        .post("/v1/webhooks/createEndpoint", org, webhooks::createEndpoint)
        .post("/v1/webhooks/updateEndpoint", org, webhooks::updateEndpoint)
        .post("/v1/webhooks/listEndpoints", org, webhooks::listEndpoints)
        .post("/v1/webhooks/deleteEndpoint", org, webhooks::deleteEndpoint)
        .post("/v1/webhooks/rotateSecret", org, webhooks::rotateSecret)
        .post("/v1/webhooks/enableEndpoint", org, webhooks::enableEndpoint)
        .post("/v1/webhooks/listDeliveries", org, webhooks::listDeliveries)
        .post("/v1/webhooks/redeliver", org, webhooks::redeliver)
        .post("/v1/listAuditEvents", org, audit::list)
        .post("/v1/flaky-tests/{operation}", org, flakyTests::forward)
        .post("/admin/v1/createOrganization", Access.ADMIN, admin::createOrganization)
        .post("/admin/v1/createApiToken", Access.ADMIN, admin::createApiToken)
        .post("/admin/v1/revokeApiToken", Access.ADMIN, admin::revokeApiToken)
        .post("/admin/v1/bindGithubInstallation", Access.ADMIN, githubAdmin::bind)
        .post("/admin/v1/unbindGithubInstallation", Access.ADMIN, githubAdmin::unbind)
        .post("/admin/v1/listGithubInstallations", Access.ADMIN, githubAdmin::list)
        .post("/admin/v1/listDeadCommands", Access.ADMIN, deadCommands::list)
        .post("/admin/v1/replayDeadCommand", Access.ADMIN, deadCommands::replay)
        .post("/admin/v1/dismissDeadCommand", Access.ADMIN, deadCommands::dismiss)
        .post("/admin/v1/resealSecrets", Access.ADMIN, reseal::reseal)
        .get("/v1/openapi.yaml", Access.PUBLIC, description::yaml)
        .get("/v1/openapi.json", Access.PUBLIC, description::json)
        .get("/ui/api", Access.PUBLIC, description::page)
        .get("/ui/api/{asset}", Access.PUBLIC, description::asset)
        .page(get, "/ui/sign-in", Access.PUBLIC, signIn::form)
        .page(post, "/ui/sign-in", Access.PUBLIC, signIn::signIn)
        .page(get, "/ui/sign-in/{provider}", Access.PUBLIC, sso::start)
        .page(get, "/ui/sign-in/{provider}/callback", Access.PUBLIC, sso::callback)
        .page(post, "/ui/sign-out", session, signIn::signOut)
        .page(get, "/ui/", session, dashboard::overview)
        .page(get, "/ui/queues/{host}/{owner}/{name}/{*rest}", session, dashboard::queueOrPull)
        .page(get, "/ui/flaky-tests/{host}/{owner}/{name}", session, orgPages::flakyTests)
        .page(get, "/ui/flaky-tests/{host}/{owner}/{name}/{testId}", session, orgPages::flakyTest)
        .page(get, "/ui/flaky-tests/test/{testId}", session, orgPages::flakyTestById)
        .page(get, "/ui/webhooks", session, orgPages::webhooks)
        .page(get, "/ui/organizations", session, dashboard::organizations)
        .page(get, "/ui/find", session, dashboard::find)
        .page(get, "/ui/audit", session, orgPages::audit)
        .page(get, "/ui/events", session, dashboard::events)
        .page(get, "/ui/static/{asset}", Access.PUBLIC, assets::asset)
        .page(post, "/ui/actions/look-at", session, actions::lookAt)
        .page(post, "/ui/actions/queues/{host}/{owner}/{name}/{*rest}", session, actions::queue)
        .page(post, "/ui/actions/webhooks/{action}", session, actions::webhook)
        .page(
            post,
            "/ui/actions/flaky-tests/{host}/{owner}/{name}/quarantine",
            session,
            actions::quarantine)
        .page(get, "/{org}/merge-queue/{*rest}", Access.PUBLIC, dashboard::detailsUrl)
        .page(get, "/{org}/flaky-tests/test/{testId}", Access.PUBLIC, orgPages::htmlUrl)
        .get("/actuator/health", Access.PUBLIC, health::overall)
        .get("/actuator/health/liveness", Access.PUBLIC, health::liveness)
        .get("/actuator/health/readiness", Access.PUBLIC, health::readiness)
        .build();
  }

  /** The gateway's one router: a second {@code RouterFunction} bean would bypass the guard. */
  @Bean
  RouterFunction<ServerResponse> apiRoutes(SecuredRoutes.Table table) {
    return table.router();
  }
}
