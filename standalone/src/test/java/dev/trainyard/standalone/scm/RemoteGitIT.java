package dev.trainyard.standalone.scm;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static dev.trainyard.standalone.support.QueueSteps.awaitPr;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.Filters;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.view.Collections;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.GitHttpServer;
import dev.trainyard.standalone.support.GitSshServer;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.TestStack;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bson.Document;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Remote git repositories ({@code /v1/scm/git/setRemote}) at the edge and when they cannot be
 * reached: validation with API.md's status codes, credentials sealed at rest and never returned,
 * tenants kept apart, and a remote the worker cannot fetch (refused password, unknown SSH key)
 * leaving its PRs {@code not_ready} with the reason until the registration is fixed.
 */
class RemoteGitIT extends OwnStack {
  private static final String PASSWORD = "correct-horse-battery";
  private final Path served = GitHost.newRoot();
  private GitHttpServer http;
  private GitSshServer ssh;

  @BeforeAll
  void servers() throws Exception {
    http = new GitHttpServer(served, "ci-bot", PASSWORD);
    ssh = new GitSshServer(served.resolve("host-key.ser"));
  }

  @AfterAll
  void stopServers() throws Exception {
    http.close();
    ssh.close();
  }

  @Test
  void registrationsAreValidatedAtTheEdgeAndTheirCredentialsNeverLeave() throws Exception {
    Api api = stack.api();
    String name = Api.uniqueRepo();
    String https = "https://git.example.com/acme/" + name + ".git";
    String ssh = "ssh://git@git.example.com/x.git";
    Map<String, String> refused = new LinkedHashMap<>();
    refused.put(remote(name, null), "url is required");
    refused.put(remote(name, "git@example.com:acme/x.git"), "absolute URL");
    refused.put(remote(name, "ftp://example.com/x.git"), "url must use https or http or ssh");
    refused.put(remote(name, "https://10.1.2.3/acme/x.git"), "private");
    String key = this.ssh.clientPrivateKey();
    refused.put(remote(name, ssh, "privateKey", key, "hostKey", "ssh-ed25519"), "hostKey must");
    refused.put(
        remote(name, ssh, "privateKey", key, "hostKey", "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIA=="),
        "hostKey's key data");
    refused.put(
        remote(name, https, "password", "pw", "hostKey", this.ssh.hostKey()),
        "hostKey is for ssh remotes");
    refused.put(remote(name, "https://bob:pw@git.example.com/x.git"), "credentials");
    refused.put(remote(name, ssh), "privateKey is required");
    refused.put(remote(name, ssh, "privateKey", "not a key"), "privateKey must be a private key");
    refused.put(
        remote(name, ssh, "privateKey", this.ssh.clientPrivateKey(), "password", "pw"),
        "password is for https remotes");
    refused.put(
        remote(name, https, "privateKey", this.ssh.clientPrivateKey()),
        "privateKey is for ssh remotes");
    refused.put(remote(name, https, "password", 7), "password");
    refused.forEach(
        (body, fragment) -> assertError(api.post("/v1/scm/git/setRemote", body), 400, fragment));
    assertError(api.post("/v1/scm/git/getRemote", body(name, "")), 404, "no remote");
    assertThat(api.withToken(null).post("/v1/scm/git/getRemote", body(name, "")).status())
        .isEqualTo(401);

    Api.Response set =
        api.post(
            "/v1/scm/git/setRemote",
            remote(name, https, "username", "ci-bot", "password", PASSWORD));
    assertThat(set.status()).as(set.body()).isEqualTo(200);
    assertThat(set.body()).isEqualTo("{}");
    Api.Response got = api.post("/v1/scm/git/getRemote", body(name, ""));
    assertThat(got.json().get("url").asString()).isEqualTo(https);
    assertThat(got.json().get("username").asString()).isEqualTo("ci-bot");
    assertThat(got.json().get("hasPassword").asBoolean()).isTrue();
    assertThat(got.json().get("hasPrivateKey").asBoolean()).isFalse();
    assertThat(got.json().get("hostKey").isNull()).as("no host key over https").isTrue();
    assertThat(got.body()).doesNotContain(PASSWORD);
    try (MongoClient client = MongoClients.create(stack.infrastructure().mongoUri())) {
      Document stored =
          client
              .getDatabase("trainyard")
              .getCollection(Collections.GIT_REMOTES)
              .find(Filters.eq("_id", TestStack.ORG + "/github.com/acme/" + name))
              .first();
      assertThat(stored).isNotNull();
      assertThat(stored.toJson()).as("sealed at rest").doesNotContain(PASSWORD);
    }

    Api stranger = stack.otherOrganization().api();
    assertError(stranger.post("/v1/scm/git/getRemote", body(name, "")), 404, "no remote");
    assertError(stranger.post("/v1/scm/git/deleteRemote", body(name, "")), 404, "no remote");
    assertThat(api.post("/v1/scm/git/getRemote", body(name, "")).status()).isEqualTo(200);

    assertThat(api.post("/v1/scm/git/deleteRemote", body(name, "")).status()).isEqualTo(200);
    assertError(api.post("/v1/scm/git/getRemote", body(name, "")), 404, "no remote");
  }

  @Test
  void aRemoteThatRefusesTheCredentialsLeavesPullRequestsNotReadyWithTheReasonUntilFixed()
      throws Exception {
    Api api = stack.api();
    String name = Api.uniqueRepo();
    try (GitHost git = new GitHost(served, TestStack.ORG, api, name)) {
      ObjectId head = git.openPr(1, "Add a", "alice", "a.txt", "a\n");
      String url = http.url(TestStack.ORG + "/github.com/acme/" + name + ".git");
      register(api, name, url, "username", "ci-bot", "password", "wrong");
      queueWithPullRequest(api, name, true);

      JsonNode refused = awaitPr(api, name, 1, pr -> reason(pr).contains("could not be fetched"));
      assertThat(refused.get("state").asString()).isEqualTo("not_ready");
      assertThat(reason(refused))
          .isEqualTo("the remote " + url + " could not be fetched: not authorized");

      // another organization naming the same repository is served nothing from it
      Api stranger = stack.otherOrganization().api();
      assertThat(stranger.post("/v1/createQueue", body(name, "")).status()).isEqualTo(200);
      assertThat(stranger.post("/v1/submitPullRequest", prBody(name, 1)).status()).isEqualTo(200);

      register(api, name, url, "username", "ci-bot", "password", PASSWORD);
      JsonNode served = awaitPr(api, name, 1, pr -> pr.get("state").asString().equals("pending"));
      assertThat(served.get("prSha").asString()).isEqualTo(head.name());
      assertThat(served.get("readiness").get("notReadyReason").isNull()).isTrue();

      JsonNode theirs =
          awaitPr(
              stranger, name, 1, pr -> reason(pr).contains("no source host serves github.com/"));
      assertThat(theirs.get("prSha").asString()).isEmpty();
    }
  }

  @Test
  void anSshKeyTheServerDoesNotKnowIsAReasonNotACrash() throws Exception {
    Api api = stack.api();
    String name = Api.uniqueRepo();
    try (GitHost git = new GitHost(served, TestStack.ORG, api, name)) {
      git.openPr(1, "Add a", "alice", "a.txt", "a\n");
      String url = ssh.url(GitHost.location(served, TestStack.ORG, name));
      register(api, name, url, "privateKey", GitSshServer.strangerPrivateKey());
      queueWithPullRequest(api, name, false);

      JsonNode refused = awaitPr(api, name, 1, pr -> reason(pr).contains("could not be fetched"));
      assertThat(refused.get("state").asString()).isEqualTo("not_ready");
      assertThat(reason(refused)).contains("Cannot log in");

      register(api, name, url, "privateKey", ssh.clientPrivateKey());
      awaitPr(api, name, 1, pr -> pr.get("prSha").asString().length() == 40);
    }
  }

  @Test
  void anSshServerWhoseHostKeyChangedIsNotTrusted() throws Exception {
    Api api = stack.api();
    String name = Api.uniqueRepo();
    GitSshServer original = new GitSshServer(served.resolve("original-key-" + name));
    GitSshServer impostor = null;
    try (GitHost git = new GitHost(served, TestStack.ORG, api, name)) {
      ObjectId head = git.openPr(1, "Add a", "alice", "a.txt", "a\n");
      String url = original.url(GitHost.location(served, TestStack.ORG, name));
      register(api, name, url, "privateKey", original.clientPrivateKey());
      queueWithPullRequest(api, name, true);
      awaitPr(api, name, 1, pr -> pr.get("prSha").asString().equals(head.name()));

      impostor = original.impostor(served.resolve("impostor-key-" + name));
      git.openPr(2, "Add b", "bob", "b.txt", "b\n");
      assertThat(api.post("/v1/submitPullRequest", prBody(name, 2)).status()).isEqualTo(200);

      JsonNode two = awaitPr(api, name, 2, pr -> reason(pr).contains("could not be fetched"));
      assertThat(two.get("prSha").asString()).as("nothing read from the impostor").isEmpty();
      assertThat(shownHostKey(api, name)).isEqualTo(original.hostKey());

      // registering again builds a new mirror (as a restart or a moved partition does): the key
      // first accepted is kept in the store, so no second first use trusts the impostor
      register(api, name, url, "privateKey", original.clientPrivateKey());
      assertThat(shownHostKey(api, name)).isEqualTo(original.hostKey());
      git.openPr(3, "Add c", "carol", "c.txt", "c\n");
      assertThat(api.post("/v1/submitPullRequest", prBody(name, 3)).status()).isEqualTo(200);
      JsonNode three = awaitPr(api, name, 3, pr -> reason(pr).contains("could not be fetched"));
      assertThat(three.get("prSha").asString()).as("nothing read from the impostor").isEmpty();
    } finally {
      (impostor != null ? impostor : original).close();
    }
  }

  @Test
  void aPinnedHostKeyIsTheOnlyOneTrusted() throws Exception {
    Api api = stack.api();
    String name = Api.uniqueRepo();
    GitSshServer other = new GitSshServer(served.resolve("other-key-" + name));
    other.close();
    try (GitHost git = new GitHost(served, TestStack.ORG, api, name)) {
      ObjectId head = git.openPr(1, "Add a", "alice", "a.txt", "a\n");
      String url = ssh.url(GitHost.location(served, TestStack.ORG, name));
      String key = ssh.clientPrivateKey();
      register(api, name, url, "privateKey", key, "hostKey", "other-host " + other.hostKey());
      assertThat(shownHostKey(api, name)).isEqualTo(other.hostKey());
      queueWithPullRequest(api, name, true);

      JsonNode refused = awaitPr(api, name, 1, pr -> reason(pr).contains("could not be fetched"));
      assertThat(refused.get("prSha").asString()).isEmpty();

      register(api, name, url, "privateKey", key, "hostKey", ssh.hostKey() + " a comment");
      awaitPr(api, name, 1, pr -> pr.get("prSha").asString().equals(head.name()));
      assertThat(shownHostKey(api, name)).isEqualTo(ssh.hostKey());
    }
  }

  private static String shownHostKey(Api api, String name) {
    Api.Response got = api.post("/v1/scm/git/getRemote", body(name, ""));
    assertThat(got.status()).as(got.body()).isEqualTo(200);
    return got.json().get("hostKey").asString();
  }

  /** Registers the remote of {@code name} with {@code fields} (URL first), expecting 200. */
  private static void register(Api api, String name, String url, Object... fields) {
    Api.Response set = api.post("/v1/scm/git/setRemote", remote(name, url, fields));
    assertThat(set.status()).as(set.body()).isEqualTo(200);
  }

  /** A queue on {@code name} with PR 1 submitted; paused, so the PRs are read but not tested. */
  private static void queueWithPullRequest(Api api, String name, boolean paused) {
    assertThat(api.post("/v1/createQueue", body(name, "")).status()).isEqualTo(200);
    if (paused) {
      assertThat(api.post("/v1/updateQueue", body(name, "\"state\":\"paused\"")).status())
          .isEqualTo(200);
    }
    assertThat(api.post("/v1/submitPullRequest", prBody(name, 1)).status()).isEqualTo(200);
  }

  private static String reason(JsonNode pr) {
    JsonNode reason = pr.get("readiness").get("notReadyReason");
    return reason == null || reason.isNull() ? "" : reason.asString();
  }

  /** A setRemote body: the repository, {@code url} (omitted when null) and name/value pairs. */
  private static String remote(String name, String url, Object... fields) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("repo", Map.of("host", "github.com", "owner", "acme", "name", name));
    if (url != null) {
      body.put("url", url);
    }
    for (int i = 0; i < fields.length; i += 2) {
      body.put((String) fields[i], fields[i + 1]);
    }
    return Json.mapper().writeValueAsString(body);
  }

  private static void assertError(Api.Response r, int status, String fragment) {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    assertThat(r.body()).contains(fragment);
  }
}
