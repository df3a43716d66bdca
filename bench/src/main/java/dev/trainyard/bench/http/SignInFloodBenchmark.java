package dev.trainyard.bench.http;

import dev.trainyard.bench.http.LoadGenerator.Call;
import dev.trainyard.bench.http.LoadGenerator.Result;
import dev.trainyard.bench.stack.StandaloneProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sign-in form under attack (issue 50): {@code /actuator/health} at a fixed rate on a quiet
 * stack, then at the same rate while {@value #SENDERS} clients each send sign-in bodies of 19 MiB
 * of empty fields, one after the other (half with a declared length, half chunked), for the whole
 * phase. Each jar given runs both phases on a stack of its own, one after the other, so a build is
 * measured beside another (the previous release's) in the same run. Arguments: {@code [seconds per
 * phase] [health rate/s] [jar] [jar…]}.
 */
public final class SignInFloodBenchmark {
  static final int SENDERS = 4;
  static final long BODY = 19L * 1024 * 1024;
  private static final byte[] FILLER = new byte[64 * 1024];

  static {
    Arrays.fill(FILLER, (byte) '&');
  }

  private SignInFloodBenchmark() {}

  /** What the senders saw: answers by status, bodies answered, bytes sent. */
  private record Flood(Map<Integer, Long> statuses, long bodies, long bytes, long failures) {}

  public static void main(String[] args) throws Exception {
    Duration phase = Duration.ofSeconds(Long.parseLong(args[0]));
    double rate = Double.parseDouble(args[1]);
    System.out.printf(
        Locale.ROOT,
        "%n| jar | health p50 / p99 quiet (ms) | health p50 / p99 under %d × 19 MiB sign-ins (ms)"
            + " | p99 ratio | health errors | sign-in bodies answered | MiB sent per body |"
            + " answers | stack CPU s |%n|---|---|---|---:|---:|---:|---:|---|---:|%n",
        SENDERS);
    for (int i = 2; i < args.length; i++) {
      measure(Path.of(args[i]), phase, rate);
    }
  }

  private static void measure(Path jar, Duration phase, double rate) throws Exception {
    try (StandaloneProcess standalone = StandaloneProcess.start(jar)) {
      LoadGenerator api = new LoadGenerator(standalone.baseUrl(), standalone.token());
      Call health = new Call("GET", "/actuator/health", null);
      api.openLoop("warm-up", rate, phase, i -> health);
      Result quiet = api.openLoop("quiet", rate, phase, i -> health);
      long cpuBefore = cpu(standalone);
      AtomicBoolean stop = new AtomicBoolean();
      Map<Integer, Long> statuses = new ConcurrentHashMap<>();
      AtomicLong bodies = new AtomicLong();
      AtomicLong bytes = new AtomicLong();
      AtomicLong failures = new AtomicLong();
      List<Thread> senders = new ArrayList<>();
      int port = Integer.parseInt(standalone.baseUrl().replaceAll(".*:", ""));
      for (int s = 0; s < SENDERS; s++) {
        boolean chunked = s % 2 == 1;
        Thread sender =
            new Thread(
                () -> {
                  while (!stop.get()) {
                    try {
                      int status = send(port, chunked, bytes, stop);
                      statuses.merge(status, 1L, Long::sum);
                      bodies.incrementAndGet();
                    } catch (IOException e) {
                      failures.incrementAndGet();
                    }
                  }
                },
                "sign-in-flood-" + s);
        sender.setDaemon(true);
        sender.start();
        senders.add(sender);
      }
      Result flooded;
      try {
        flooded = api.openLoop("flooded", rate, phase, i -> health);
      } finally {
        stop.set(true);
        for (Thread sender : senders) {
          sender.join(60_000);
        }
      }
      double cpuSeconds = (cpu(standalone) - cpuBefore) / 1e9;
      Flood flood = new Flood(new TreeMap<>(statuses), bodies.get(), bytes.get(), failures.get());
      System.out.printf(
          Locale.ROOT,
          "| %s | %.1f / %.1f | %.1f / %.1f | %.2f | %d | %d | %.2f | %s%s | %.1f |%n",
          jar.getFileName(),
          quiet.p50Millis(),
          quiet.p99Millis(),
          flooded.p50Millis(),
          flooded.p99Millis(),
          flooded.p99Millis() / Math.max(0.001, quiet.p99Millis()),
          quiet.errors() + flooded.errors(),
          flood.bodies(),
          flood.bodies() == 0 ? 0 : flood.bytes() / (double) flood.bodies() / (1 << 20),
          flood.statuses(),
          flood.failures() == 0 ? "" : ", " + flood.failures() + " dropped connections",
          cpuSeconds);
    }
  }

  private static long cpu(StandaloneProcess standalone) {
    return standalone.cpuTimes().values().stream().mapToLong(Duration::toNanos).sum();
  }

  /**
   * One sign-in body of {@link #BODY} bytes ({@code token=} and empty fields), written until the
   * server answers, which is read while the body is still being written; the answer's status.
   */
  private static int send(int port, boolean chunked, AtomicLong sent, AtomicBoolean stop)
      throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(120_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /ui/sign-in HTTP/1.1\r\nHost: 127.0.0.1:"
                  + port
                  + "\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                  + (chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + BODY)
                  + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      AtomicBoolean answered = new AtomicBoolean();
      Thread writer =
          new Thread(
              () -> {
                try {
                  byte[] head = "token=".getBytes(StandardCharsets.US_ASCII);
                  chunk(out, head, head.length, chunked);
                  long written = head.length;
                  while (written < BODY && !answered.get() && !stop.get()) {
                    int n = (int) Math.min(FILLER.length, BODY - written);
                    chunk(out, FILLER, n, chunked);
                    written += n;
                    sent.addAndGet(n);
                  }
                  if (chunked && written >= BODY) {
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                  }
                  out.flush();
                  if (written < BODY && !answered.get()) {
                    socket.close(); // the phase is over: the body is abandoned, not finished
                  }
                } catch (IOException e) {
                  // the server answered and closed the connection
                }
              });
      writer.setDaemon(true);
      writer.start();
      InputStream in = socket.getInputStream();
      StringBuilder status = new StringBuilder();
      for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
        status.append((char) c);
      }
      answered.set(true);
      String[] parts = status.toString().split(" ");
      if (parts.length < 2) {
        throw new IOException("no answer");
      }
      return Integer.parseInt(parts[1]);
    }
  }

  private static void chunk(OutputStream out, byte[] bytes, int n, boolean chunked)
      throws IOException {
    if (chunked) {
      out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    }
    out.write(bytes, 0, n);
    if (chunked) {
      out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
  }
}
