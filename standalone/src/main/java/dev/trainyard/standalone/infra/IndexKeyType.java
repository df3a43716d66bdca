package dev.trainyard.standalone.infra;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * The keys of a unique index (one value per indexed field), as BSON, in a total order of their own.
 * The H2 backend's default cannot order them ({@link KeyValue} is not comparable), so it
 * Java-serialized both keys on every comparison: a lookup by {@code _id} cost a dozen
 * serializations.
 */
final class IndexKeyType extends BasicDataType<KeyValue> {
  private static final String VALUES = "v";
  private static final String MISSING = "m";
  private static final int ESTIMATE = 64;

  /** Classes whose {@code compareTo} is 0 exactly when {@code equals} is true. */
  private static final Set<Class<?>> NATURALLY_ORDERED =
      Set.of(
          String.class,
          Integer.class,
          Long.class,
          Double.class,
          Boolean.class,
          Instant.class,
          UUID.class);

  @Override
  public int getMemory(KeyValue key) {
    return ESTIMATE;
  }

  @Override
  public int compare(KeyValue a, KeyValue b) {
    int shared = Math.min(a.size(), b.size());
    for (int i = 0; i < shared; i++) {
      int order = compareValues(a.get(i), b.get(i));
      if (order != 0) {
        return order;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  /**
   * A total order that calls two values the same only when they are equal, as the map needs: the
   * index normalizes a key before it stores or looks it up, so equal keys are one key, and any
   * others stay two, as they did when H2 compared their serialized bytes. By BSON type, then by
   * class, then by the class's own order for the classes whose order agrees with equality, and by
   * the encoded bytes for the rest. mongo-java-server's ValueComparator is not usable here: it is
   * not transitive across longs and doubles, and it refuses to order some types. The order serves
   * only the map: a lookup is by equality, and a scan reads every key.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compareValues(Object a, Object b) {
    if (Objects.equals(a, b)) {
      return 0;
    }
    if (a == null || b == null) {
      return a == null ? -1 : 1;
    }
    if (a instanceof Missing || b instanceof Missing) {
      return a instanceof Missing ? -1 : 1;
    }
    int order = Byte.compare(BsonEncoder.determineType(a), BsonEncoder.determineType(b));
    if (order == 0) {
      order = a.getClass().getName().compareTo(b.getClass().getName());
    }
    if (order == 0 && NATURALLY_ORDERED.contains(a.getClass())) {
      order = ((Comparable) a).compareTo(b);
    }
    return order != 0 ? order : Arrays.compare(encoded(a), encoded(b));
  }

  private static byte[] encoded(Object value) {
    WriteBuffer out = new WriteBuffer();
    BsonValues.write(out, new Document(VALUES, value));
    ByteBuffer bytes = out.getBuffer().flip();
    byte[] copy = new byte[bytes.remaining()];
    bytes.get(copy);
    return copy;
  }

  @Override
  public void write(WriteBuffer out, KeyValue key) {
    List<Object> values = new ArrayList<>(key.size());
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < key.size(); i++) {
      Object value = key.get(i);
      if (value instanceof Missing) {
        missing.add(i);
        values.add(null);
      } else {
        values.add(value);
      }
    }
    Document stored = new Document(VALUES, values);
    if (!missing.isEmpty()) {
      stored.put(MISSING, missing);
    }
    BsonValues.write(out, stored);
  }

  @Override
  public KeyValue read(ByteBuffer in) {
    Document stored = BsonValues.read(in);
    List<Object> values = new ArrayList<>((List<?>) stored.get(VALUES));
    if (stored.get(MISSING) instanceof List<?> missing) {
      for (Object position : missing) {
        values.set(((Number) position).intValue(), Missing.getInstance());
      }
    }
    return new KeyValue(values);
  }

  @Override
  public KeyValue[] createStorage(int size) {
    return new KeyValue[size];
  }
}
