package dev.trainyard.gateway.auth;

import dev.trainyard.gateway.config.GatewayProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/** Creates the bootstrap organization (and its configured token) at start when absent. */
@Component
public class Bootstrap implements ApplicationRunner {
  private static final Logger log = LoggerFactory.getLogger(Bootstrap.class);
  private final Organizations organizations;
  private final GatewayProperties props;

  public Bootstrap(Organizations organizations, GatewayProperties props) {
    this.organizations = organizations;
    this.props = props;
  }

  @Override
  public void run(ApplicationArguments args) {
    String org = props.bootstrap().org();
    boolean created = Boolean.TRUE.equals(organizations.create(org).block());
    if (created) {
      log.info("created bootstrap organization {}", org);
    }
    String token = props.bootstrap().token();
    if (token != null && !token.isEmpty()) {
      organizations.addToken(org, token).block();
    }
  }
}
