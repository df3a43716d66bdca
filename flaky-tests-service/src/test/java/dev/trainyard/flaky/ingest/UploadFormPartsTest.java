package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.flaky.http.ApiException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * How an upload's fields arrive (API.md §6): as plain form fields, or as parts of their own type (a
 * JSON {@code repo}, as HTTP libraries send it), each up to 64 KiB; a file part is refused.
 */
class UploadFormPartsTest {
  private static final String REPO =
      "{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"rocket\"}";

  @Test
  void fieldsSentAsPartsOfTheirOwnTypeAreReadLikeFormFields() {
    MultiValueMap<String, Part> parts = new LinkedMultiValueMap<>();
    parts.add("repo", typed("repo", MediaType.APPLICATION_JSON, REPO));
    parts.add("commitSha", field("commitSha", " abc "));
    parts.add("branch", typed("branch", MediaType.APPLICATION_OCTET_STREAM, "main"));
    parts.add("variant", typed("variant", MediaType.APPLICATION_JSON, ""));

    UploadForm form = UploadForm.read(parts).block();

    assertThat(form.repo().name()).isEqualTo("rocket");
    assertThat(form.commitSha()).isEqualTo("abc");
    assertThat(form.branch()).isEqualTo("main");
    assertThat(form.variant()).isEmpty();
  }

  @Test
  void aFieldPastTheLimitIsA413HoweverItIsSent() {
    String large = "a".repeat(UploadForm.MAX_FIELD_BYTES + 1);
    for (Part jobUrl :
        new Part[] {typed("jobUrl", MediaType.APPLICATION_JSON, large), field("jobUrl", large)}) {
      MultiValueMap<String, Part> parts = form();
      parts.add("jobUrl", jobUrl);

      assertThatThrownBy(() -> UploadForm.read(parts).block())
          .isInstanceOfSatisfying(
              ApiException.class,
              e -> assertThat(e.status()).isEqualTo(HttpStatus.CONTENT_TOO_LARGE))
          .hasMessageStartingWith("jobUrl is larger than the limit of 65536");
    }
  }

  @Test
  void aFieldSentAsAFileIsA400NamingIt() {
    MultiValueMap<String, Part> parts = form();
    parts.set("repo", file("repo", REPO));

    assertThatThrownBy(() -> UploadForm.read(parts).block())
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST))
        .hasMessage("repo must be a form field, not a file");
  }

  private static MultiValueMap<String, Part> form() {
    MultiValueMap<String, Part> parts = new LinkedMultiValueMap<>();
    parts.add("repo", field("repo", REPO));
    parts.add("commitSha", field("commitSha", "abc"));
    parts.add("branch", field("branch", "main"));
    return parts;
  }

  private static Flux<DataBuffer> bytes(String text) {
    return Flux.just(
        DefaultDataBufferFactory.sharedInstance.wrap(text.getBytes(StandardCharsets.UTF_8)));
  }

  private static HttpHeaders typeHeaders(MediaType type) {
    HttpHeaders headers = new HttpHeaders();
    headers.setContentType(type);
    return headers;
  }

  /** A part with a content type of its own and no file name. */
  private static Part typed(String name, MediaType type, String value) {
    return new Part() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public HttpHeaders headers() {
        return typeHeaders(type);
      }

      @Override
      public Flux<DataBuffer> content() {
        return bytes(value);
      }
    };
  }

  private static FormFieldPart field(String name, String value) {
    return new FormFieldPart() {
      @Override
      public String value() {
        return value;
      }

      @Override
      public String name() {
        return name;
      }

      @Override
      public HttpHeaders headers() {
        return new HttpHeaders();
      }

      @Override
      public Flux<DataBuffer> content() {
        return bytes(value);
      }
    };
  }

  private static FilePart file(String name, String value) {
    return new FilePart() {
      @Override
      public String filename() {
        return name + ".json";
      }

      @Override
      public Mono<Void> transferTo(Path dest) {
        return Mono.error(new UnsupportedOperationException());
      }

      @Override
      public String name() {
        return name;
      }

      @Override
      public HttpHeaders headers() {
        return typeHeaders(MediaType.APPLICATION_JSON);
      }

      @Override
      public Flux<DataBuffer> content() {
        return bytes(value);
      }
    };
  }
}
