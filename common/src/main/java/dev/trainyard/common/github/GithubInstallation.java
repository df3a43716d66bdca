package dev.trainyard.common.github;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * A GitHub App installation as trainyard knows it: the account it was installed on, the
 * organization it serves (null until bound: {@code bindGithubInstallation}, or {@code
 * TRAINYARD_GITHUB_DEFAULT_ORG} when it was installed), and whether GitHub suspended it. Written by
 * the gateway from the admin API and the {@code installation} webhook; read by the workers.
 */
public record GithubInstallation(
    @JsonProperty("_id") long id,
    String org,
    String account,
    boolean suspended,
    Instant updatedAt) {}
