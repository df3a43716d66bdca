package dev.trainyard.standalone.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A POST of any size streamed over a plain socket from one reused 64 KiB block (nothing of its size
 * is allocated), with or without a Content-Length; the response is read while the body is still
 * being written, as a server that answers early would have it.
 */
public final class RawRequest {
  /** What the server answered, and how many body bytes were written before it did. */
  public record Answer(int status, Map<String, String> headers, String body, long bytesSent) {}

  private RawRequest() {}

  /** A flaky-tests upload of {@code size} bytes: a JUnit XML file of one repeated testcase. */
  public static Answer upload(int port, String token, String repo, long size, boolean chunked)
      throws Exception {
    String boundary = "rawupload";
    byte[] head =
        ("--"
                + boundary
                + "\r\nContent-Disposition: form-data; name=\"repo\"\r\n\r\n"
                + "{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\""
                + repo
                + "\"}\r\n--"
                + boundary
                + "\r\nContent-Disposition: form-data; name=\"commitSha\"\r\n\r\nabc\r\n--"
                + boundary
                + "\r\nContent-Disposition: form-data; name=\"branch\"\r\n\r\nmain\r\n--"
                + boundary
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"huge.xml\"\r\n\r\n"
                + "<testsuite name=\"huge\">\n")
            .getBytes(StandardCharsets.UTF_8);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("x-api-token", token);
    headers.put("Content-Type", "multipart/form-data; boundary=" + boundary);
    return post(
        port,
        "/v1/flaky-tests/upload",
        headers,
        head,
        "<testcase name=\"t\"/>\n".getBytes(StandardCharsets.UTF_8),
        size,
        chunked);
  }

  /**
   * POSTs {@code head} and then {@code filler} repeated to {@code size} bytes in all, with {@code
   * headers}, chunked or with its length declared.
   */
  public static Answer post(
      int port,
      String path,
      Map<String, String> headers,
      byte[] head,
      byte[] filler,
      long size,
      boolean chunked)
      throws Exception {
    byte[] block = new byte[64 * 1024];
    for (int i = 0; i < block.length; i++) {
      block[i] = filler[i % filler.length];
    }
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(60_000);
      OutputStream out = socket.getOutputStream();
      StringBuilder request =
          new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
      headers.forEach(
          (name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
      request
          .append(chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + size)
          .append("\r\n\r\n");
      out.write(request.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong sent = new AtomicLong();
      Thread writer =
          new Thread(
              () -> {
                try {
                  write(out, head, chunked, sent);
                  while (!stop.get() && sent.get() < size) {
                    int n = (int) Math.min(block.length, size - sent.get());
                    write(out, n == block.length ? block : Arrays.copyOf(block, n), chunked, sent);
                  }
                  if (chunked) {
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.UTF_8));
                  }
                  out.flush();
                } catch (IOException e) {
                  // the server answered and closed: what the test waits for
                }
              },
              "raw-upload");
      writer.setDaemon(true);
      writer.start();
      BufferedReader in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
      String statusLine = in.readLine();
      Map<String, String> answerHeaders = new LinkedHashMap<>();
      for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
        int colon = line.indexOf(':');
        answerHeaders.put(
            line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
            line.substring(colon + 1).trim());
      }
      StringBuilder body = new StringBuilder();
      String length = answerHeaders.get("content-length");
      if (length != null) {
        char[] chars = new char[Integer.parseInt(length)];
        int read = 0;
        while (read < chars.length) {
          int n = in.read(chars, read, chars.length - read);
          if (n < 0) {
            break;
          }
          read += n;
        }
        body.append(chars, 0, read);
      }
      stop.set(true);
      return new Answer(
          Integer.parseInt(statusLine.split(" ")[1]), answerHeaders, body.toString(), sent.get());
    }
  }

  private static void write(OutputStream out, byte[] bytes, boolean chunked, AtomicLong sent)
      throws IOException {
    if (chunked) {
      out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.UTF_8));
      out.write(bytes);
      out.write("\r\n".getBytes(StandardCharsets.UTF_8));
    } else {
      out.write(bytes);
    }
    sent.addAndGet(bytes.length);
  }
}
