package dev.trainyard.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Settings as operators write them: environment variables of API.md §6. */
class GatewayPropertiesTest {

  @Test
  void outboundAllowedHostsComeFromTheirEnvironmentVariable() {
    var environment =
        new SystemEnvironmentPropertySource(
            StandardEnvironment
                .SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, // read as Boot reads the real one
            Map.of("TRAINYARD_OUTBOUND_ALLOWED_HOSTS", "hooks.internal,Metadata.Internal"));

    GatewayProperties props =
        new Binder(ConfigurationPropertySources.from(environment))
            .bindOrCreate("trainyard", GatewayProperties.class);

    assertThat(props.outbound().allowedHosts())
        .containsExactly("hooks.internal", "Metadata.Internal");
  }
}
