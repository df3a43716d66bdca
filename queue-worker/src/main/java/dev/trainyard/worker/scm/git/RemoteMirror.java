package dev.trainyard.worker.scm.git;

import dev.trainyard.common.net.OutboundGuard;
import dev.trainyard.common.net.OutboundRefusedException;
import dev.trainyard.worker.scm.PrivateKeys;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.List;
import java.util.Properties;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.PushResult;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.RemoteRefUpdate;
import org.eclipse.jgit.transport.SshTransport;
import org.eclipse.jgit.transport.Transport;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;
import org.eclipse.jgit.transport.sshd.ServerKeyDatabase;
import org.eclipse.jgit.transport.sshd.SshdSessionFactory;
import org.eclipse.jgit.transport.sshd.SshdSessionFactoryBuilder;

/**
 * The mirror of a remote repository under the git cache ({@code TRAINYARD_GIT_CACHE}): fetched
 * branches and {@code refs/pull/*} with deleted refs pruned, commits built locally and pushed with
 * the expected old value of every ref they move, so a ref someone else moved is never overwritten.
 * A ref moves in the mirror only after the remote took it. The URL's host passes the outbound
 * address guard before every connection. SSH keys are checked on first use: the first host key a
 * mirror sees is the only one it accepts afterwards.
 */
final class RemoteMirror implements GitPlace {
  /** Seconds a connection may stay silent before the fetch or push fails. */
  static final int TIMEOUT_SECONDS = 30;

  private static final List<RefSpec> MIRRORED =
      List.of(new RefSpec("+refs/heads/*:refs/heads/*"), new RefSpec("+refs/pull/*:refs/pull/*"));
  private static final String HOST_KEYS = "trainyard-host-keys.properties";
  private final RemoteAccess access;
  private final Repository mirror;
  private final Path dir;
  private final OutboundGuard guard;
  private final URIish uri;
  private final SshdSessionFactory ssh;

  RemoteMirror(Path dir, RemoteAccess access, OutboundGuard guard) throws IOException {
    this.dir = dir;
    this.access = access;
    this.guard = guard;
    try {
      this.uri = withSshUser(new URIish(access.url()), access);
    } catch (URISyntaxException e) {
      throw new IOException("the remote URL " + access + " cannot be read: " + e.getMessage());
    }
    Files.createDirectories(dir);
    Repository repo = new FileRepositoryBuilder().setGitDir(dir.toFile()).build();
    if (!Files.exists(dir.resolve("HEAD"))) {
      repo.create(true);
    }
    this.mirror = repo;
    this.ssh = access.isSsh() ? sshFactory(dir, access.privateKey()) : null;
  }

  RemoteAccess access() {
    return access;
  }

  @Override
  public Repository repository() {
    return mirror;
  }

  @Override
  public synchronized void sync() throws IOException {
    try {
      fetch();
    } catch (IOException e) {
      if (!StaleLocks.clear(mirror)) { // a worker killed mid-fetch leaves the mirror's ref locks
        throw e;
      }
      fetch();
    }
  }

  private void fetch() throws IOException {
    guarded();
    try (Git git = Git.wrap(mirror)) {
      git.fetch()
          .setRemote(uri.toString())
          .setRefSpecs(MIRRORED)
          .setRemoveDeletedRefs(true)
          .setTimeout(TIMEOUT_SECONDS)
          .setCredentialsProvider(credentials())
          .setTransportConfigCallback(this::configure)
          .call();
    } catch (GitAPIException | RuntimeException e) {
      throw new IOException("the remote " + access + " could not be fetched: " + cause(e), e);
    }
  }

  @Override
  public synchronized Update update(String ref, ObjectId expectedOld, ObjectId newId)
      throws IOException {
    Update pushed = push(ref, newId, expectedOld == null ? current(ref) : expectedOld, expectedOld);
    if (pushed == Update.REFUSED && expectedOld == null) {
      // our own branch, moved by an earlier attempt whose answer was lost: replace what is there
      sync();
      pushed = push(ref, newId, current(ref), null);
    }
    if (pushed == Update.REFUSED) {
      return pushed;
    }
    LocalPlace.move(mirror, ref, null, newId);
    return pushed;
  }

  @Override
  public synchronized void delete(String ref) throws IOException {
    if (push(ref, null, current(ref), null) == Update.REFUSED) {
      sync();
      push(ref, null, current(ref), null);
    }
    new LocalPlace.Deleter(mirror).delete(ref);
  }

  @Override
  public void close() {
    mirror.close();
    if (ssh != null) {
      ssh.close();
    }
  }

  /**
   * Pushes {@code newId} (null: deletes) to {@code ref}, stating {@code expected} as the remote's
   * value; {@code fastForwardOnly} when the caller gave the value it must move from.
   */
  private Update push(String ref, ObjectId newId, ObjectId expected, ObjectId fastForwardFrom)
      throws IOException {
    guarded();
    try (Transport transport = Transport.open(mirror, uri)) {
      configure(transport);
      transport.setCredentialsProvider(credentials());
      transport.setTimeout(TIMEOUT_SECONDS);
      RemoteRefUpdate update =
          new RemoteRefUpdate(mirror, null, newId, ref, fastForwardFrom == null, null, expected);
      PushResult result = transport.push(NullProgressMonitor.INSTANCE, List.of(update));
      RemoteRefUpdate answered = result.getRemoteUpdate(ref);
      return switch (answered.getStatus()) {
        case OK, UP_TO_DATE, NON_EXISTING -> Update.MOVED;
        case REJECTED_REMOTE_CHANGED, REJECTED_NONFASTFORWARD -> Update.REFUSED;
        case REJECTED_OTHER_REASON ->
            // a server that saw the ref move under the push reports a failed lock here
            Update.REFUSED;
        default ->
            throw new IOException(
                "the remote " + access + " did not update " + ref + ": " + answered.getStatus());
      };
    } catch (org.eclipse.jgit.errors.TransportException e) {
      throw new IOException("the remote " + access + " refused a push: " + cause(e), e);
    }
  }

  private ObjectId current(String ref) throws IOException {
    Ref found = mirror.exactRef(ref);
    return found == null ? ObjectId.zeroId() : found.getObjectId();
  }

  /** The URL's host and every address it resolves to pass the outbound guard. */
  private void guarded() throws IOException {
    try {
      guard.addresses(uri.getHost());
    } catch (OutboundRefusedException e) {
      throw new IOException("the remote " + access + " may not be reached: " + e.getMessage());
    } catch (UnknownHostException e) {
      throw new IOException("the remote " + access + " does not resolve: " + uri.getHost());
    }
  }

  private CredentialsProvider credentials() {
    if (access.isSsh() || access.password() == null) {
      return null;
    }
    String user = access.username() == null ? "token" : access.username();
    return new UsernamePasswordCredentialsProvider(user, access.password());
  }

  private void configure(Transport transport) {
    if (transport instanceof SshTransport sshTransport && ssh != null) {
      sshTransport.setSshSessionFactory(ssh);
    }
  }

  private static URIish withSshUser(URIish parsed, RemoteAccess access) {
    if (!access.isSsh()) {
      return parsed;
    }
    String user = access.username() != null ? access.username() : parsed.getUser();
    return parsed.setUser(user == null ? "git" : user).setPass(null);
  }

  /**
   * What went wrong, in one clause: the innermost message that says something, without the URL JGit
   * puts in front of it (the reason names the remote once).
   */
  private String cause(Throwable e) {
    String said = null;
    for (Throwable t = e; t != null && said == null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        said = t.getMessage();
      }
    }
    if (said == null) {
      return e.getClass().getSimpleName();
    }
    for (String prefix : List.of(uri + ": ", access.url() + ": ", uri.setPass(null) + ": ")) {
      while (said.startsWith(prefix)) {
        said = said.substring(prefix.length());
      }
    }
    return said;
  }

  private static SshdSessionFactory sshFactory(Path dir, String privateKey) throws IOException {
    List<KeyPair> keys =
        privateKey == null ? List.of() : PrivateKeys.read(privateKey, "the remote's private key");
    Path home = dir.resolve("ssh-home");
    Files.createDirectories(home.resolve(".ssh"));
    Path hostKeys = dir.resolve(HOST_KEYS);
    return new SshdSessionFactoryBuilder()
        .setHomeDirectory(home.toFile())
        .setSshDirectory(home.resolve(".ssh").toFile())
        .setConfigStoreFactory((h, f, u) -> null)
        .setDefaultKeysProvider(ignored -> keys)
        .setPreferredAuthentications("publickey")
        .setServerKeyDatabase((h, s) -> new FirstSeenHostKeys(hostKeys))
        .build(null);
  }

  /** Accepts the first host key seen for an address, and afterwards only that one. */
  private record FirstSeenHostKeys(Path file) implements ServerKeyDatabase {
    @Override
    public List<PublicKey> lookup(
        String connectAddress, InetSocketAddress remoteAddress, Configuration config) {
      return List.of();
    }

    @Override
    public synchronized boolean accept(
        String connectAddress,
        InetSocketAddress remoteAddress,
        PublicKey serverKey,
        Configuration config,
        CredentialsProvider provider) {
      String seen = KeyUtils.getFingerPrint(serverKey);
      try {
        Properties known = new Properties();
        if (Files.exists(file)) {
          try (var in = Files.newInputStream(file)) {
            known.load(in);
          }
        }
        String first = known.getProperty(connectAddress);
        if (first != null) {
          return first.equals(seen);
        }
        known.setProperty(connectAddress, seen);
        try (var out = Files.newOutputStream(file)) {
          known.store(out, "host keys first seen by this mirror");
        }
        return true;
      } catch (IOException e) {
        return false;
      }
    }
  }
}
