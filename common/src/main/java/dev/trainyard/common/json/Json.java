package dev.trainyard.common.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.Map;
import org.bson.Document;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.module.blackbird.BlackbirdModule;

/**
 * The one JSON configuration of trainyard: commands on Kafka, documents in MongoDB, HTTP bodies.
 */
public final class Json {
  /**
   * Deepest nesting accepted in any JSON input; deeper bodies are client errors, not stack
   * overflows.
   */
  public static final int MAX_NESTING_DEPTH = 64;

  private static final JsonMapper MAPPER = create();

  private Json() {}

  public static JsonMapper mapper() {
    return MAPPER;
  }

  /** {@code value} as the document the store keeps for it, written with this configuration. */
  @SuppressWarnings("unchecked")
  public static Document document(Object value) {
    return new Document(MAPPER.convertValue(value, Map.class));
  }

  private static JsonMapper create() {
    JsonFactory factory =
        JsonFactory.builder()
            .streamReadConstraints(
                StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
            .build();
    SimpleModule timestamps = new SimpleModule("trainyard-timestamps");
    timestamps.addSerializer(Instant.class, new InstantSerializer());
    timestamps.addDeserializer(Instant.class, new InstantDeserializer());
    return JsonMapper.builder(factory)
        .addModule(timestamps)
        // Jackson 3 reads and writes properties through method handles it keeps in fields, which
        // the JIT cannot inline: about 6 % of a submit's CPU went to that glue (ADR 0021)
        .addModule(new BlackbirdModule())
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        // a document stored before a field existed lacks it: Jackson 3.1 reads a missing boolean or
        // number of a record as null, which would refuse every queue stored by an older version
        .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .changeDefaultPropertyInclusion(incl -> incl.withValueInclusion(JsonInclude.Include.ALWAYS))
        .build();
  }

  private static final class InstantSerializer extends ValueSerializer<Instant> {
    @Override
    public void serialize(Instant value, JsonGenerator gen, SerializationContext ctxt) {
      gen.writeString(Timestamps.format(value));
    }
  }

  private static final class InstantDeserializer extends ValueDeserializer<Instant> {
    @Override
    public Instant deserialize(JsonParser p, DeserializationContext ctxt) {
      return Timestamps.parse(p.getValueAsString());
    }
  }
}
