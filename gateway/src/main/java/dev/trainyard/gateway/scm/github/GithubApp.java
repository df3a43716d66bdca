package dev.trainyard.gateway.scm.github;

import dev.trainyard.common.github.GithubClient;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.gateway.config.GatewayProperties;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The GitHub App as the gateway calls it: a client with the App's credentials ({@code
 * TRAINYARD_GITHUB_APP_ID} and its private key), or none when they are not set, and the {@code
 * repo.host} it serves.
 */
@Component
public class GithubApp {
  private final GithubClient client;
  private final String host;

  public GithubApp(GatewayProperties props) throws IOException {
    GatewayProperties.Github github = props.github();
    this.host = github.host();
    if (github.appId() == null || github.appId().isBlank()) {
      this.client = null;
      return;
    }
    String pem =
        (github.privateKey() == null || github.privateKey().isBlank())
                && github.privateKeyFile() != null
            ? Files.readString(Path.of(github.privateKeyFile()))
            : github.privateKey();
    this.client =
        GithubClient.create(
            URI.create(github.apiUrl()),
            github.appId(),
            pem,
            InstantSource.system(),
            GithubClient.Sleeper.THREAD);
  }

  /** The App's client; empty without its credentials. */
  public Optional<GithubClient> client() {
    return Optional.ofNullable(client);
  }

  /** Whether {@code repo} is on the GitHub this App serves. */
  public boolean serves(RepoRef repo) {
    return repo.host().equalsIgnoreCase(host);
  }
}
