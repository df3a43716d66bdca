package dev.trainyard.standalone.flaky;

import dev.trainyard.standalone.support.Api;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** A {@code multipart/form-data} body as CI uploaders send it. */
public final class Multipart {
  private final String boundary = "----trainyard" + UUID.randomUUID().toString().replace("-", "");
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  public Multipart field(String name, String value) {
    write("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n");
    write(value);
    write("\r\n");
    return this;
  }

  /** A field sent as a part of its own type, as HTTP libraries send a JSON part. */
  Multipart typed(String name, String contentType, String value) {
    write(
        "--"
            + boundary
            + "\r\nContent-Disposition: form-data; name=\""
            + name
            + "\"\r\nContent-Type: "
            + contentType
            + "\r\n\r\n");
    write(value);
    write("\r\n");
    return this;
  }

  public Multipart file(String name, String fileName, String content) {
    write(
        "--"
            + boundary
            + "\r\nContent-Disposition: form-data; name=\""
            + name
            + "\"; filename=\""
            + fileName
            + "\"\r\nContent-Type: application/xml\r\n\r\n");
    write(content);
    write("\r\n");
    return this;
  }

  /** The common fields of an upload for {@code repo} (owner {@code acme}, host github.com). */
  public static Multipart upload(String repo, String sha, String branch, Long pr) {
    Multipart m =
        new Multipart()
            .field("repo", "{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"" + repo + "\"}")
            .field("commitSha", sha)
            .field("branch", branch);
    return pr == null ? m : m.field("prNumber", Long.toString(pr));
  }

  public String contentType() {
    return "multipart/form-data; boundary=" + boundary;
  }

  public byte[] body() {
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    copy.writeBytes(out.toByteArray());
    copy.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    return copy.toByteArray();
  }

  private void write(String text) {
    out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Posts this form to {@code /v1/flaky-tests/upload} with {@code api}'s token. */
  public Api.Response uploadWith(Api api) {
    return api.send(
        api.request("/v1/flaky-tests/upload")
            .setHeader("content-type", contentType())
            .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(body())));
  }
}
