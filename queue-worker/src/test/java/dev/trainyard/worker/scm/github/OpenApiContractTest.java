package dev.trainyard.worker.scm.github;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The contract catches what the simulator or the adapter could get wrong about GitHub. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiContractTest {
  private OpenApiContract contract;

  @BeforeAll
  void description() throws Exception {
    contract = OpenApiContract.github();
  }

  @Test
  void anEndpointGithubDoesNotHaveIsABreach() {
    assertThat(contract.checkRequest("POST", "/repos/acme/rocket/fast-forward", null))
        .singleElement()
        .asString()
        .contains("no operation");
    assertThat(contract.operation("GET", "/repos/acme/rocket/git/ref/heads/feature/x"))
        .contains("/repos/{owner}/{repo}/git/ref/{ref}");
    assertThat(contract.operation("PUT", "/repos/acme/rocket/pulls/7/merge"))
        .contains("/repos/{owner}/{repo}/pulls/{pull_number}/merge");
  }

  @Test
  void aFieldOfTheWrongTypeOrAMissingRequiredOneIsABreach() {
    JsonNode good =
        Json.mapper().readTree("{\"ref\":\"refs/heads/x\",\"sha\":\"" + "a".repeat(40) + "\"}");
    assertThat(contract.checkRequest("POST", "/repos/acme/rocket/git/refs", good)).isEmpty();
    JsonNode typo = Json.mapper().readTree("{\"ref\":\"refs/heads/x\"}");
    assertThat(contract.checkRequest("POST", "/repos/acme/rocket/git/refs", typo)).isNotEmpty();
    JsonNode wrongType = Json.mapper().readTree("{\"ref\":\"refs/heads/x\",\"sha\":7}");
    assertThat(contract.checkRequest("POST", "/repos/acme/rocket/git/refs", wrongType))
        .isNotEmpty();
  }

  @Test
  void aResponseMustBeDocumentedAndMatchItsSchemaThroughItsReferences() {
    ObjectNode ref =
        (ObjectNode) contract.example("GET", "/repos/acme/rocket/git/ref/heads/main", 200).get();
    assertThat(contract.checkResponse("GET", "/repos/acme/rocket/git/ref/heads/main", 200, ref))
        .isEmpty();
    ((ObjectNode) ref.get("object")).remove("sha");
    assertThat(contract.checkResponse("GET", "/repos/acme/rocket/git/ref/heads/main", 200, ref))
        .as("object.sha is required (a $ref into components)")
        .isNotEmpty();
    assertThat(contract.checkResponse("GET", "/repos/acme/rocket/git/ref/heads/main", 418, null))
        .singleElement()
        .asString()
        .contains("never answers 418");
  }
}
