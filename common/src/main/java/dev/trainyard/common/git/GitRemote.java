package dev.trainyard.common.git;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.webhook.SecretBox;
import java.time.Instant;

/**
 * A repository an organization's git adapter reaches on a git server instead of under the git root
 * ({@code /v1/scm/git/setRemote}): its URL, and credentials sealed with the secrets key ({@code
 * SecretBox}; null when not given). Written by the gateway, read by the workers.
 *
 * @param id the repository as the organization names it ({@link OrgRepo#toString()})
 * @param url an {@code https}, {@code http} or {@code ssh} URL (an ssh URL may carry the user)
 * @param password the sealed password or token for HTTP(S)
 * @param privateKey the sealed private key (OpenSSH or PEM) for SSH
 * @param hostKey the SSH server's host key in OpenSSH {@code known_hosts} form ({@code <type>
 *     <base64>}): pinned with {@code setRemote}, or else the first one a worker accepted and
 *     recorded; null over HTTP(S) and before the first SSH connection
 */
public record GitRemote(
    @JsonProperty("_id") String id,
    String org,
    RepoRef repo,
    String url,
    String username,
    String password,
    String privateKey,
    String hostKey,
    Instant updatedAt) {

  public static String id(OrgRepo repo) {
    return repo.toString();
  }

  /**
   * Where this registration's {@code field} ({@code password}, {@code privateKey}) is sealed for.
   */
  public static SecretBox.Place place(OrgRepo repo, String field) {
    return new SecretBox.Place(Collections.GIT_REMOTES, id(repo), field);
  }

  public OrgRepo orgRepo() {
    return new OrgRepo(org, repo);
  }
}
