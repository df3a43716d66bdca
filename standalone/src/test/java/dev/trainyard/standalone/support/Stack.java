package dev.trainyard.standalone.support;

/**
 * A running trainyard the black-box suites talk to over HTTP: in-process ({@link TestStack}) or the
 * chart's topology as separate processes ({@link ClusterHarness}).
 */
public interface Stack extends AutoCloseable {
  /** A client holding the bootstrap organization's API token. */
  Api api();

  /** A client holding the admin token. */
  Api admin();

  /** An organization of the stack: its slug, and a client holding its API token. */
  record Organization(String slug, Api api) {}

  /** A new organization, created through the admin API. */
  default Organization otherOrganization() {
    Api admin = admin();
    String slug = "other-" + Api.uniqueRepo();
    Api.Response created =
        admin.post("/admin/v1/createOrganization", "{\"slug\":\"" + slug + "\"}");
    Api.Response token = admin.post("/admin/v1/createApiToken", "{\"org\":\"" + slug + "\"}");
    if (created.status() != 200 || token.status() != 200) {
      throw new IllegalStateException(
          "could not create organization " + slug + ": " + created.body() + token.body());
    }
    return new Organization(slug, api().withToken(token.json().get("token").asString()));
  }

  /**
   * A new API token of {@code org} with {@code role} and {@code name}, created through the admin
   * API: a client holding it.
   */
  default Api token(Organization org, String role, String name) {
    Api.Response created =
        admin()
            .post(
                "/admin/v1/createApiToken",
                "{\"org\":\""
                    + org.slug()
                    + "\",\"role\":\""
                    + role
                    + "\",\"name\":\""
                    + name
                    + "\"}");
    if (created.status() != 200) {
      throw new IllegalStateException("could not create a " + role + " token: " + created.body());
    }
    return org.api().withToken(created.json().get("token").asString());
  }

  @Override
  void close();
}
