package dev.trainyard.worker.scm.git;

import dev.trainyard.common.net.OutboundGuard;
import dev.trainyard.common.net.OutboundRefusedException;
import dev.trainyard.worker.scm.PrivateKeys;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.List;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
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
import org.eclipse.jgit.transport.TransportHttp;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;
import org.eclipse.jgit.transport.sshd.ServerKeyDatabase;
import org.eclipse.jgit.transport.sshd.SshdSessionFactory;
import org.eclipse.jgit.transport.sshd.SshdSessionFactoryBuilder;

/**
 * The mirror of a remote repository under the git cache ({@code TRAINYARD_GIT_CACHE}): fetched
 * branches and {@code refs/pull/*} with deleted refs pruned, commits built locally and pushed with
 * the expected old value of every ref they move, so a ref someone else moved is never overwritten.
 * A ref moves in the mirror only after the remote took it. Every connection goes to an address the
 * outbound guard checked in the same lookup: over HTTP(S) through {@link PinnedHttp} (no redirects,
 * smart protocol only), over SSH to the checked address itself. The SSH host key is the one pinned
 * with {@code setRemote}, or else the first one any worker accepted for the registration, kept in
 * the store ({@link HostKeys}) so no restart or partition move opens another first use.
 */
final class RemoteMirror implements GitPlace {
  /** Seconds a connection may stay silent before the fetch or push fails. */
  static final int TIMEOUT_SECONDS = 30;

  private static final List<RefSpec> MIRRORED =
      List.of(new RefSpec("+refs/heads/*:refs/heads/*"), new RefSpec("+refs/pull/*:refs/pull/*"));
  private final RemoteAccess access;
  private final Repository mirror;
  private final Path dir;
  private final OutboundGuard guard;
  private final URIish uri;
  private final SshdSessionFactory ssh;
  private final PinnedHttp http;

  RemoteMirror(Path dir, RemoteAccess access, OutboundGuard guard, HostKeys hostKeys)
      throws IOException {
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
    this.ssh = access.isSsh() ? sshFactory(dir, access.privateKey(), hostKeys) : null;
    this.http = access.isSsh() ? null : new PinnedHttp(httpUrl(uri), guard, TIMEOUT_SECONDS);
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
    URIish target = guarded();
    try (Git git = Git.wrap(mirror)) {
      git.fetch()
          .setRemote(target.toString())
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
    if (http != null) {
      http.close();
    }
  }

  /**
   * Pushes {@code newId} (null: deletes) to {@code ref}, stating {@code expected} as the remote's
   * value; {@code fastForwardOnly} when the caller gave the value it must move from.
   */
  private Update push(String ref, ObjectId newId, ObjectId expected, ObjectId fastForwardFrom)
      throws IOException {
    URIish target = guarded();
    try (Transport transport = Transport.open(mirror, target)) {
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

  /**
   * The URL's host and every address it resolves to pass the outbound guard: the URL to connect to.
   * Over SSH that is the first checked address itself (the host key is looked up by registration,
   * not by the address); over HTTP(S) the name, which {@link PinnedHttp} resolves the same way.
   */
  private URIish guarded() throws IOException {
    try {
      List<InetAddress> addresses = guard.addresses(uri.getHost());
      if (!access.isSsh()) {
        return uri;
      }
      InetAddress first = addresses.get(0);
      String literal = first.getHostAddress();
      return uri.setHost(first instanceof Inet6Address ? "[" + literal + "]" : literal);
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
    if (transport instanceof TransportHttp httpTransport && http != null) {
      httpTransport.setHttpConnectionFactory(http);
    }
  }

  private static URL httpUrl(URIish uri) throws IOException {
    try {
      return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), "/", null, null).toURL();
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw new IOException("the remote URL " + uri + " cannot be read: " + e.getMessage());
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
   * What went wrong, in one clause: the rule that refused a request, or else the outermost message
   * that says something, without the URL JGit puts in front of it (the reason names the remote
   * once).
   */
  private String cause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof PinnedHttp.Refused) {
        return t.getMessage();
      }
    }
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

  private static SshdSessionFactory sshFactory(Path dir, String privateKey, HostKeys hostKeys)
      throws IOException {
    List<KeyPair> keys =
        privateKey == null ? List.of() : PrivateKeys.read(privateKey, "the remote's private key");
    Path home = dir.resolve("ssh-home");
    Files.createDirectories(home.resolve(".ssh"));
    return new SshdSessionFactoryBuilder()
        .setHomeDirectory(home.toFile())
        .setSshDirectory(home.resolve(".ssh").toFile())
        .setConfigStoreFactory((h, f, u) -> null)
        .setDefaultKeysProvider(ignored -> keys)
        .setPreferredAuthentications("publickey")
        .setServerKeyDatabase((h, s) -> new RegisteredHostKey(hostKeys))
        .build(null);
  }

  /**
   * Accepts the registration's host key: the one pinned or first accepted, whatever address the
   * connection went to; with none yet, the key seen becomes it (for every worker, through the
   * store).
   */
  private record RegisteredHostKey(HostKeys hostKeys) implements ServerKeyDatabase {
    @Override
    public List<PublicKey> lookup(
        String connectAddress, InetSocketAddress remoteAddress, Configuration config) {
      return List.of();
    }

    @Override
    public boolean accept(
        String connectAddress,
        InetSocketAddress remoteAddress,
        PublicKey serverKey,
        Configuration config,
        CredentialsProvider provider) {
      String seen = PublicKeyEntry.toString(serverKey);
      return HostKeys.same(hostKeys.accepted(seen), seen);
    }
  }
}
