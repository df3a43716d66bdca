package dev.trainyard.standalone.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.OwnStack;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The subscription API over HTTP on a stack that allows plain http but not loopback (as a cluster
 * would): the URL guard, validation, organization scoping, rotation and the delivery-log cursor.
 */
class WebhookSubscriptionsIT extends OwnStack {

  @Override
  protected Map<String, Object> properties() {
    return Map.of("trainyard.webhook.allow-loopback", false);
  }

  @ParameterizedTest(name = "{0} is refused")
  @CsvSource({
    "http://127.0.0.1:8080/hook, loopback",
    "http://169.254.169.254/latest/meta-data, link-local or metadata",
    "http://10.0.0.1/hook, private",
    "http://localhost:9000/hook, loopback",
    "'http://[::1]:9000/hook', loopback",
    "http://2852039166/hook, url host 2852039166 is the IPv4 address 169.254.169.254",
    "'http://[::a9fe:a9fe]/hook', IPv4-compatible",
    "'http://[64:ff9b::a9fe:a9fe]/hook', through NAT64",
    "ftp://93.184.216.34/hook, url must use http or https",
    "'', url is required"
  })
  void targetsInsideTheNetworkAreRefused(String url, String message) {
    Api.Response r = stack.api().post("/v1/webhooks/createEndpoint", "{\"url\":\"" + url + "\"}");
    Api quiet = stack.otherOrganization().api();
    Api.Response moved =
        quiet.post(
            "/v1/webhooks/updateEndpoint",
            "{\"id\":\"" + publicEndpoint(quiet) + "\",\"url\":\"" + url + "\"}");

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body()).contains(message);
    assertThat(moved.status()).as("an endpoint cannot be moved there either").isEqualTo(400);
    assertThat(moved.body()).contains(message);
  }

  /**
   * An endpoint at a public address, of the organization with no queues: no event is ever sent to
   * it (tests send traffic to loopback only).
   */
  private static String publicEndpoint(Api api) {
    Api.Response created =
        api.post("/v1/webhooks/createEndpoint", "{\"url\":\"http://93.184.216.34/hook\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return created.json().get("id").asString();
  }

  @Test
  void endpointsBelongToTheirOrganizationAndRotateWithAGracePeriod() {
    // an organization with no queues: it has no events, so nothing is ever sent to this public
    // address (tests send traffic to loopback only)
    Api api = stack.otherOrganization().api();
    Api.Response created =
        api.post(
            "/v1/webhooks/createEndpoint",
            "{\"url\":\"http://93.184.216.34/hook\",\"eventTypes\":[\"pull_request.*\"],"
                + "\"description\":\"ci\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    String id = created.json().get("id").asString();
    assertThat(created.json().get("secret").asString()).startsWith("whsec_");
    assertThat(created.json().get("eventTypes").get(0).asString()).isEqualTo("pull_request.*");

    String listed = api.post("/v1/webhooks/listEndpoints", "{}").body();
    assertThat(listed).contains(id).doesNotContain("whsec_").doesNotContain("secret");

    Api.Response rotated = api.post("/v1/webhooks/rotateSecret", "{\"id\":\"" + id + "\"}");
    assertThat(rotated.status()).isEqualTo(200);
    assertThat(rotated.json().get("secret").asString())
        .startsWith("whsec_")
        .isNotEqualTo(created.json().get("secret").asString());

    Api stranger = stack.otherOrganization().api();
    assertThat(stranger.post("/v1/webhooks/deleteEndpoint", "{\"id\":\"" + id + "\"}").status())
        .isEqualTo(404);
    assertThat(
            stranger
                .post(
                    "/v1/webhooks/updateEndpoint",
                    "{\"id\":\"" + id + "\",\"url\":\"http://93.184.216.35/elsewhere\"}")
                .status())
        .isEqualTo(404);
    assertThat(api.post("/v1/webhooks/listEndpoints", "{}").body())
        .contains("http://93.184.216.34/hook")
        .doesNotContain("elsewhere");
    assertThat(stranger.post("/v1/webhooks/listEndpoints", "{}").body()).doesNotContain(id);
    assertThat(stranger.post("/v1/webhooks/rotateSecret", "{\"id\":\"" + id + "\"}").status())
        .isEqualTo(404);
    assertThat(api.post("/v1/webhooks/deleteEndpoint", "{\"id\":\"" + id + "\"}").status())
        .isEqualTo(200);
    assertThat(api.post("/v1/webhooks/deleteEndpoint", "{\"id\":\"" + id + "\"}").status())
        .isEqualTo(404);
  }

  @Test
  void badInputIsA400ThatNamesTheField() {
    Api api = stack.api();
    Api.Response badTypes =
        api.post(
            "/v1/webhooks/createEndpoint",
            "{\"url\":\"http://93.184.216.34/\",\"eventTypes\":[\"pull*\"]}");
    assertThat(badTypes.status()).isEqualTo(400);
    assertThat(badTypes.body()).contains("eventTypes");
    assertThat(api.post("/v1/webhooks/listDeliveries", "{\"cursor\":\"forged.token\"}").status())
        .isEqualTo(400);
    assertThat(api.post("/v1/webhooks/listDeliveries", "{\"take\":0}").status()).isEqualTo(400);
    assertThat(api.post("/v1/webhooks/redeliver", "{\"deliveryId\":\"msg_nope\"}").status())
        .isEqualTo(404);
  }
}
