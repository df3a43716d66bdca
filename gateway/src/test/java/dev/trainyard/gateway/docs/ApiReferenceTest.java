package dev.trainyard.gateway.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/api.md} is what {@link ApiReference} writes from {@code docs/openapi.yaml}: a change
 * of the document that the reference does not carry fails here ({@code -Dtrainyard.docs=write}
 * writes it).
 */
class ApiReferenceTest {
  private static final Path REFERENCE = Path.of("..", "docs", "api.md");

  @Test
  void theReferenceIsWrittenFromTheDocument() throws Exception {
    String written = new ApiReference(OpenApiDocument.read()).render();
    if ("write".equals(System.getProperty("trainyard.docs"))) {
      Files.writeString(REFERENCE, written, StandardCharsets.UTF_8);
    }

    assertThat(REFERENCE).exists();
    assertThat(Files.readString(REFERENCE, StandardCharsets.UTF_8))
        .as("docs/api.md is stale: " + ApiReference.REGENERATE)
        .isEqualTo(written);
  }
}
