package dev.trainyard.standalone.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.TestStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * API.md §6 "Management endpoints": the API port serves health and its probes only; the Prometheus
 * scrape and the rest of {@code /actuator} are on the management port.
 */
class ManagementPortIT {
  private final TestStack stack = TestStack.shared();

  private Api management() {
    return new Api("http://127.0.0.1:" + stack.services().gatewayManagementPort(), null);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/actuator/prometheus", "/actuator/info", "/actuator", "/actuator/env"})
  void theApiPortHidesEveryManagementEndpoint(String path) {
    Api withToken = stack.api();
    Api anonymous = withToken.withToken(null);

    assertThat(anonymous.send(anonymous.request(path).GET()).status()).isEqualTo(404);
    assertThat(withToken.send(withToken.request(path).GET()).status()).isEqualTo(404);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness"})
  void healthAndItsProbesAnswerOnBothPorts(String path) {
    Api anonymous = stack.api().withToken(null);

    Api.Response api = anonymous.send(anonymous.request(path).GET());
    Api.Response managed = management().send(management().request(path).GET());

    assertThat(api.status()).as(api.body()).isEqualTo(200);
    assertThat(api.body()).contains("\"status\":\"UP\"");
    assertThat(managed.status()).as(managed.body()).isEqualTo(200);
  }

  @Test
  void prometheusScrapesTheManagementPort() {
    Api.Response scrape = management().send(management().request("/actuator/prometheus").GET());

    assertThat(scrape.status()).isEqualTo(200);
    assertThat(scrape.body()).contains("# TYPE jvm_memory_used_bytes gauge");
  }
}
