package dev.trainyard.standalone.support;

import java.io.IOException;
import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.auth.pubkey.KeySetPublickeyAuthenticator;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.server.shell.ProcessShellCommandFactory;

/**
 * A git server over SSH on loopback: Apache MINA sshd accepting one client key and running git's
 * own {@code git-upload-pack} / {@code git-receive-pack} for the command the client sends, on the
 * absolute path its URL names. The host key is generated per server.
 */
public final class GitSshServer implements AutoCloseable {
  private final SshServer server;
  private final KeyPair client;

  public GitSshServer(Path hostKeyFile) throws IOException {
    this(hostKeyFile, 0, newRsaKey());
  }

  /** A server on {@code port} (0: a free one) that accepts {@code client}'s key. */
  private GitSshServer(Path hostKeyFile, int port, KeyPair client) throws IOException {
    this.client = client;
    server = SshServer.setUpDefaultServer();
    server.setHost(InetAddress.getLoopbackAddress().getHostAddress());
    server.setPort(port);
    server.setKeyPairProvider(new SimpleGeneratorHostKeyProvider(hostKeyFile));
    server.setPublickeyAuthenticator(
        new KeySetPublickeyAuthenticator("trainyard-test", List.of(client.getPublic())));
    server.setPasswordAuthenticator(null);
    server.setKeyboardInteractiveAuthenticator(null);
    server.setCommandFactory(new ProcessShellCommandFactory());
    server.start();
  }

  /**
   * Another server in this one's place (same port, same client key) with the host key in {@code
   * hostKeyFile}: what a client sees when someone intercepts the connection.
   */
  public GitSshServer impostor(Path hostKeyFile) throws IOException {
    int port = server.getPort();
    close();
    return new GitSshServer(hostKeyFile, port, client);
  }

  /** The server's host key in OpenSSH {@code known_hosts} form, as {@code setRemote} pins it. */
  public String hostKey() {
    try {
      KeyPair key = server.getKeyPairProvider().loadKeys(null).iterator().next();
      return PublicKeyEntry.toString(key.getPublic());
    } catch (IOException | java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The ssh URL of the bare repository at {@code repository} (an absolute path). */
  public String url(Path repository) {
    return "ssh://git@127.0.0.1:" + server.getPort() + repository.toAbsolutePath();
  }

  /** The client's private key, PKCS#8 in PEM form, as {@code setRemote} takes it. */
  public String clientPrivateKey() {
    StringWriter pem = new StringWriter();
    pem.write("-----BEGIN PRIVATE KEY-----\n");
    pem.write(
        Base64.getMimeEncoder(64, "\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
            .encodeToString(client.getPrivate().getEncoded()));
    pem.write("\n-----END PRIVATE KEY-----\n");
    return pem.toString();
  }

  /** Another key, which this server does not accept. */
  public static String strangerPrivateKey() throws IOException {
    KeyPair stranger = newRsaKey();
    return "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder().encodeToString(stranger.getPrivate().getEncoded())
        + "\n-----END PRIVATE KEY-----\n";
  }

  private static KeyPair newRsaKey() throws IOException {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IOException(e);
    }
  }

  @Override
  public void close() throws IOException {
    server.stop(true);
  }
}
