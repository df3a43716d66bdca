package dev.trainyard.gateway.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** The dashboard's stylesheet and script: two fixed files, read once, served by name only. */
@Component
public class Assets {
  private record Asset(MediaType type, byte[] bytes) {}

  private final Map<String, Asset> assets =
      Map.of(
          "app.css",
              load(
                  "app.css", new MediaType("text", "css", java.nio.charset.StandardCharsets.UTF_8)),
          "live.js",
              load(
                  "live.js",
                  new MediaType("text", "javascript", java.nio.charset.StandardCharsets.UTF_8)));

  private static Asset load(String name, MediaType type) {
    try (InputStream in = Assets.class.getClassLoader().getResourceAsStream("ui/static/" + name)) {
      if (in == null) {
        throw new IllegalStateException("ui/static/" + name + " is not in the gateway's jar");
      }
      return new Asset(type, in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Mono<ServerResponse> asset(ServerRequest request) {
    Asset asset = assets.get(request.pathVariable("asset"));
    if (asset == null) {
      return Mono.error(dev.trainyard.gateway.http.ApiException.notFound("no such file"));
    }
    return Pages.secured(ServerResponse.ok())
        .contentType(asset.type())
        .cacheControl(CacheControl.maxAge(java.time.Duration.ofMinutes(5)))
        .bodyValue(asset.bytes());
  }
}
