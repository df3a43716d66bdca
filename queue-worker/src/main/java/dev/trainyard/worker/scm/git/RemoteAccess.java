package dev.trainyard.worker.scm.git;

import java.time.Instant;

/**
 * A registered remote with its credentials opened: what a {@link RemoteMirror} connects with.
 * {@code version} changes whenever the registration does, so a mirror never outlives the
 * credentials it was built with.
 *
 * @param password the password or token for HTTP(S), or null
 * @param privateKey the private key for SSH, or null
 */
record RemoteAccess(
    String url, String username, String password, String privateKey, Instant version) {

  boolean isSsh() {
    return url.regionMatches(true, 0, "ssh:", 0, 4);
  }

  @Override
  public String toString() {
    return url; // never the credentials
  }
}
