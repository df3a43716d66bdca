package dev.trainyard.standalone.infra;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.bson.Document;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * The keys of a unique index (one value per indexed field), as BSON, ordered by value as MongoDB
 * orders them. The H2 backend's default cannot order them ({@link KeyValue} is not comparable), so
 * it Java-serialized both keys on every comparison: a lookup by {@code _id} cost a dozen
 * serializations. A field the document lacks is kept apart from one holding null, as the store kept
 * them before.
 */
final class IndexKeyType extends BasicDataType<KeyValue> {
  private static final String VALUES = "v";
  private static final String MISSING = "m";
  private static final ValueComparator ORDER = ValueComparator.ascWithoutListHandling();
  private static final int ESTIMATE = 64;

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
   * By value, and two values only when they are equal: the index normalizes its keys before it
   * stores them, and two it did not make equal stay two keys, as they were in the store before (a
   * long past 2^53 and its neighbour compare as the same double; a document compares by the first
   * one's fields).
   */
  private static int compareValues(Object a, Object b) {
    if (a instanceof Missing || b instanceof Missing) {
      return Boolean.compare(!(a instanceof Missing), !(b instanceof Missing));
    }
    int order = ORDER.compare(a, b);
    if (order != 0 || Objects.equals(a, b)) {
      return order;
    }
    return Arrays.compare(encoded(a), encoded(b));
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
