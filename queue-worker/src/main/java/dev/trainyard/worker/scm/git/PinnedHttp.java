package dev.trainyard.worker.scm.git;

import dev.trainyard.common.net.OutboundGuard;
import dev.trainyard.common.net.OutboundRefusedException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Proxy;
import java.net.URL;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.InputStreamEntity;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;
import org.eclipse.jgit.transport.http.HttpConnection;
import org.eclipse.jgit.transport.http.HttpConnectionFactory;
import org.eclipse.jgit.util.TemporaryBuffer;

/**
 * HTTP(S) for one registered remote, so a tenant's git server cannot turn the worker into a client
 * of the internal network (API.md §6): every connection goes to an address the outbound guard
 * checked in the same lookup (no second DNS answer is ever used, so a rebinding name gains
 * nothing), only to the registered host and port, only for git's smart protocol (the dumb
 * protocol's {@code objects/info/http-alternates} could name any host), and never along a redirect.
 * The host name stays in the request and in TLS (SNI and certificate check), so virtual hosting and
 * certificates work as they would by name.
 */
final class PinnedHttp implements HttpConnectionFactory, AutoCloseable {
  /** Bytes of a refused or failed answer kept for the message JGit builds from it. */
  private static final int ERROR_BODY = 64 * 1024;

  /** What git's smart HTTP protocol requests: the ref advertisement and the two services. */
  private static final Pattern SMART =
      Pattern.compile(
          ".*/(info/refs\\?service=git-(upload|receive)-pack|git-(upload|receive)-pack)");

  private final String scheme;
  private final String host;
  private final int port;
  private final CloseableHttpClient client;

  /**
   * The answer of the request made last: JGit does not always read an answer to its end, and its
   * connection goes back only when closed, so a new request closes the one before (the mirror makes
   * its requests one after another).
   */
  private CloseableHttpResponse last;

  /**
   * @param remote the registered URL, whose scheme, host and port every request must keep
   * @param timeoutSeconds how long connecting may take and a connection may stay silent
   */
  PinnedHttp(URL remote, OutboundGuard guard, int timeoutSeconds) {
    this.scheme = remote.getProtocol().toLowerCase(Locale.ROOT);
    this.host = bare(remote.getHost());
    this.port = remote.getPort() < 0 ? remote.getDefaultPort() : remote.getPort();
    Timeout timeout = Timeout.ofSeconds(timeoutSeconds);
    this.client =
        HttpClients.custom()
            .setConnectionManager(
                PoolingHttpClientConnectionManagerBuilder.create()
                    .setDnsResolver(new Checked(host, guard))
                    .setDefaultConnectionConfig(
                        ConnectionConfig.custom()
                            .setConnectTimeout(timeout)
                            .setSocketTimeout(timeout)
                            .build())
                    .setDefaultSocketConfig(SocketConfig.custom().setSoTimeout(timeout).build())
                    .build())
            .setDefaultRequestConfig(
                RequestConfig.custom().setConnectionRequestTimeout(timeout).build())
            // a connection per request: a kept-alive one the server closed meanwhile fails the
            // next push ("connection failed"), and git makes few requests per fetch or push
            .setConnectionReuseStrategy((request, response, context) -> false)
            .disableRedirectHandling()
            .disableAutomaticRetries()
            .disableCookieManagement()
            .disableContentCompression() // JGit asks for and unpacks gzip itself
            .disableAuthCaching()
            .build();
  }

  @Override
  public HttpConnection create(URL url) throws IOException {
    String refused = refusal(url);
    if (refused != null) {
      throw new Refused(refused);
    }
    return new Exchange(url);
  }

  /** A proxy is never used: the connection goes to the checked address itself. */
  @Override
  public HttpConnection create(URL url, Proxy proxy) throws IOException {
    return create(url);
  }

  @Override
  public void close() {
    try {
      client.close();
    } catch (IOException e) {
      // nothing is left to release
    }
  }

  private synchronized CloseableHttpResponse execute(BasicClassicHttpRequest request)
      throws IOException {
    if (last != null) {
      last.close(CloseMode.IMMEDIATE);
    }
    last = CloseableHttpResponse.adapt(client.executeOpen(null, request, null));
    return last;
  }

  /** A URL's host without the brackets of an IPv6 literal, as the guard and the client take it. */
  private static String bare(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /** Why {@code url} may not be requested, or null when it may. */
  private String refusal(URL url) {
    int urlPort = url.getPort() < 0 ? url.getDefaultPort() : url.getPort();
    if (!url.getProtocol().equalsIgnoreCase(scheme)
        || !bare(url.getHost()).equalsIgnoreCase(host)
        || urlPort != port) {
      return "the remote sent the worker to another server, which trainyard does not follow";
    }
    String target = url.getQuery() == null ? url.getPath() : url.getPath() + "?" + url.getQuery();
    if (!SMART.matcher(target).matches()) {
      return "the remote does not speak git's smart HTTP protocol (the dumb protocol is not"
          + " supported: it can name other servers to fetch from)";
    }
    return null;
  }

  /** A request a rule refused: the sentence names the rule, never what a server answered. */
  static final class Refused extends IOException {
    Refused(String message) {
      super(message);
    }
  }

  /** The registered host's addresses, each passed by the guard; any other name resolves nowhere. */
  private record Checked(String host, OutboundGuard guard) implements DnsResolver {
    @Override
    public InetAddress[] resolve(String name) throws UnknownHostException {
      if (!name.equalsIgnoreCase(host)) {
        throw new UnknownHostException(name);
      }
      return guard.addresses(name).toArray(InetAddress[]::new);
    }

    @Override
    public String resolveCanonicalHostname(String name) {
      return name;
    }
  }

  /** One request and its answer, as JGit drives {@code HttpURLConnection}. */
  private final class Exchange implements HttpConnection {
    private final URL url;
    private final Map<String, List<String>> requestHeaders = new LinkedHashMap<>();
    private String method = "GET";
    private TemporaryBuffer body;
    private CloseableHttpResponse response;
    private InputStream content;

    Exchange(URL url) {
      this.url = url;
    }

    @Override
    public URL getURL() {
      return url;
    }

    @Override
    public void setRequestMethod(String method) {
      this.method = method;
    }

    @Override
    public String getRequestMethod() {
      return method;
    }

    @Override
    public void setRequestProperty(String key, String value) {
      requestHeaders.put(key, List.of(value));
    }

    @Override
    public OutputStream getOutputStream() {
      if (body == null) {
        body = new TemporaryBuffer.LocalFile(null);
      }
      return body;
    }

    @Override
    public void connect() throws IOException {
      if (response != null) {
        return;
      }
      BasicClassicHttpRequest request =
          new BasicClassicHttpRequest(method, new HttpHost(scheme, host, port), url.getFile());
      requestHeaders.forEach((name, values) -> values.forEach(v -> request.addHeader(name, v)));
      if (body != null) {
        body.close();
        request.setEntity(new InputStreamEntity(body.openInputStream(), body.length(), null));
      }
      try {
        response = execute(request);
      } catch (OutboundRefusedException e) {
        throw new Refused(e.getMessage());
      } finally {
        if (body != null) {
          body.destroy();
        }
      }
      int code = response.getCode();
      if (code >= 300 && code < 400) {
        response.close(CloseMode.IMMEDIATE);
        throw new Refused(
            "the remote answered with a redirect (HTTP "
                + code
                + "), which trainyard does not"
                + " follow: register the URL it names");
      }
      HttpEntity entity = response.getEntity();
      if (entity == null) {
        content = InputStream.nullInputStream();
        response.close();
      } else if (code >= 400) {
        // closing the content would read the rest of it, however long: only its start is kept
        try {
          content = new ByteArrayInputStream(entity.getContent().readNBytes(ERROR_BODY));
        } finally {
          response.close(CloseMode.IMMEDIATE);
        }
      } else {
        content = entity.getContent();
      }
    }

    @Override
    public int getResponseCode() throws IOException {
      connect();
      return response.getCode();
    }

    @Override
    public String getResponseMessage() throws IOException {
      connect();
      return response.getReasonPhrase();
    }

    @Override
    public InputStream getInputStream() throws IOException {
      connect();
      return new ClosingStream(content, response);
    }

    @Override
    public Map<String, List<String>> getHeaderFields() {
      Map<String, List<String>> fields = new LinkedHashMap<>();
      if (response != null) {
        for (Header header : response.getHeaders()) {
          fields.computeIfAbsent(header.getName(), k -> new ArrayList<>()).add(header.getValue());
        }
      }
      return fields;
    }

    @Override
    public List<String> getHeaderFields(String name) {
      List<String> values = new ArrayList<>();
      if (response != null) {
        for (Header header : response.getHeaders(name)) {
          values.add(header.getValue());
        }
      }
      return values;
    }

    @Override
    public String getHeaderField(String name) {
      Header header = response == null ? null : response.getFirstHeader(name);
      return header == null ? null : header.getValue();
    }

    @Override
    public String getContentType() {
      HttpEntity entity = response == null ? null : response.getEntity();
      if (entity != null && entity.getContentType() != null) {
        return entity.getContentType();
      }
      return getHeaderField("Content-Type");
    }

    @Override
    public int getContentLength() {
      HttpEntity entity = response == null ? null : response.getEntity();
      long length = entity == null ? -1 : entity.getContentLength();
      return length > Integer.MAX_VALUE ? -1 : (int) length;
    }

    @Override
    public boolean usingProxy() {
      return false;
    }

    // Timeouts are the client's (the mirror's); caches, redirects and streaming modes do not apply.
    @Override
    public void setUseCaches(boolean usecaches) {}

    @Override
    public void setConnectTimeout(int timeout) {}

    @Override
    public void setReadTimeout(int timeout) {}

    @Override
    public void setInstanceFollowRedirects(boolean followRedirects) {}

    @Override
    public void setDoOutput(boolean dooutput) {}

    @Override
    public void setFixedLengthStreamingMode(int contentLength) {}

    @Override
    public void setChunkedStreamingMode(int chunklen) {}

    /** Certificates are always checked against the system's trust store and the host name. */
    @Override
    public void configure(KeyManager[] km, TrustManager[] tm, SecureRandom random) {}

    @Override
    public void setHostnameVerifier(HostnameVerifier hostnameverifier) {}
  }

  /**
   * An answer's body whose connection is dropped when JGit closes it: closing the content itself
   * would read the rest, however long a server makes it (one read to its end has already given the
   * connection back).
   */
  private static final class ClosingStream extends java.io.FilterInputStream {
    private final CloseableHttpResponse response;

    ClosingStream(InputStream in, CloseableHttpResponse response) {
      super(in);
      this.response = response;
    }

    @Override
    public void close() {
      response.close(CloseMode.IMMEDIATE);
    }
  }
}
