package dev.trainyard.worker.telemetry;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An OTLP/HTTP trace receiver on loopback ({@code POST /v1/traces}, protobuf), as a collector would
 * be: it keeps every span it is sent, with the {@code service.name} of the resource that sent it.
 * Shared (test-jar) by the tracing tests and the telemetry benchmarks.
 */
public final class OtlpReceiver implements AutoCloseable {
  /**
   * One span as received: its service, ids (hex), parent (hex, empty at a root), name, start and
   * end (ns since the epoch), attributes (each value as text), and links (each {@code <trace
   * id>-<span id>}, hex).
   */
  public record ReceivedSpan(
      String service,
      String traceId,
      String spanId,
      String parentId,
      String name,
      long startNanos,
      long endNanos,
      Map<String, String> attributes,
      List<String> links) {
    public long nanos() {
      return endNanos - startNanos;
    }
  }

  private final HttpServer server;
  private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
  private final AtomicLong exports = new AtomicLong();

  /** A receiver that keeps every span. */
  public OtlpReceiver() throws IOException {
    this(true);
  }

  /**
   * A receiver that keeps the spans, or ({@code keep} false) only answers and counts the exports,
   * as a collector elsewhere would take them: a benchmark's receiver shares the machine with the
   * stack it measures and must not spend its CPU decoding.
   */
  public OtlpReceiver(boolean keep) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/v1/traces",
        exchange -> {
          try (InputStream body = exchange.getRequestBody()) {
            byte[] request = body.readAllBytes();
            exports.incrementAndGet();
            if (keep) {
              keep(ExportTraceServiceRequest.parseFrom(request));
            }
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
          } catch (IOException | RuntimeException e) {
            exchange.sendResponseHeaders(400, -1);
          } finally {
            exchange.close();
          }
        });
    server.start();
  }

  private void keep(ExportTraceServiceRequest request) {
    HexFormat hex = HexFormat.of();
    for (ResourceSpans resource : request.getResourceSpansList()) {
      String service =
          resource.getResource().getAttributesList().stream()
              .filter(a -> a.getKey().equals("service.name"))
              .map(KeyValue::getValue)
              .map(v -> v.getStringValue())
              .findFirst()
              .orElse("");
      for (ScopeSpans scope : resource.getScopeSpansList()) {
        scope
            .getSpansList()
            .forEach(
                s ->
                    spans.add(
                        new ReceivedSpan(
                            service,
                            hex.formatHex(s.getTraceId().toByteArray()),
                            hex.formatHex(s.getSpanId().toByteArray()),
                            hex.formatHex(s.getParentSpanId().toByteArray()),
                            s.getName(),
                            s.getStartTimeUnixNano(),
                            s.getEndTimeUnixNano(),
                            attributes(s.getAttributesList()),
                            s.getLinksList().stream()
                                .map(
                                    l ->
                                        hex.formatHex(l.getTraceId().toByteArray())
                                            + "-"
                                            + hex.formatHex(l.getSpanId().toByteArray()))
                                .toList())));
      }
    }
  }

  private static Map<String, String> attributes(List<KeyValue> attributes) {
    Map<String, String> out = new HashMap<>();
    for (KeyValue a : attributes) {
      var v = a.getValue();
      out.put(
          a.getKey(),
          v.hasStringValue()
              ? v.getStringValue()
              : v.hasIntValue()
                  ? Long.toString(v.getIntValue())
                  : v.hasBoolValue() ? Boolean.toString(v.getBoolValue()) : v.toString());
    }
    return out;
  }

  /** The endpoint to export to: {@code http://127.0.0.1:<port>/v1/traces}. */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces";
  }

  /** How many export requests arrived. */
  public long exports() {
    return exports.get();
  }

  /** Every span received so far. */
  public List<ReceivedSpan> spans() {
    return List.copyOf(spans);
  }

  /** The spans of one trace received so far. */
  public List<ReceivedSpan> trace(String traceId) {
    return spans.stream().filter(s -> s.traceId().equals(traceId)).toList();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
