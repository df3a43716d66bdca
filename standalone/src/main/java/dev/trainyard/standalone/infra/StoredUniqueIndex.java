package dev.trainyard.standalone.infra;

import de.bwaldvogel.mongo.backend.AbstractUniqueIndex;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;

/**
 * A unique index kept in a store map whose keys are {@link IndexKeyType}, as H2's own keeps one.
 */
final class StoredUniqueIndex extends AbstractUniqueIndex<Object> {
  private final MVMap<KeyValue, Object> positions;

  StoredUniqueIndex(
      MVMap<KeyValue, Object> positions, String name, List<IndexKey> keys, boolean sparse) {
    super(name, keys, sparse);
    this.positions = positions;
  }

  @Override
  protected Object removeDocument(KeyValue key) {
    return positions.remove(key);
  }

  @Override
  protected boolean putKeyPosition(KeyValue key, Object position) {
    return positions.putIfAbsent(key, Missing.ofNullable(position)) == null;
  }

  @Override
  protected Iterable<Map.Entry<KeyValue, Object>> getIterable() {
    return positions.entrySet();
  }

  @Override
  protected Object getPosition(KeyValue key) {
    return positions.get(key);
  }

  /**
   * The positions of the documents whose key is one string starting with {@code prefix}, in key
   * order: the keys are ordered by value, strings by {@link String#compareTo}, so they are the keys
   * from {@code prefix} on until the first without it.
   */
  List<Object> positionsWithPrefix(String prefix) {
    List<Object> found = new ArrayList<>();
    Cursor<KeyValue, Object> cursor = positions.cursor(new KeyValue(prefix));
    while (cursor.hasNext()) {
      KeyValue key = cursor.next();
      if (key.size() != 1 || !(key.get(0) instanceof String id) || !id.startsWith(prefix)) {
        break;
      }
      found.add(cursor.getValue());
    }
    return found;
  }

  @Override
  public long getCount() {
    return positions.sizeAsLong();
  }

  @Override
  public long getDataSize() {
    return getCount();
  }

  @Override
  public boolean isEmpty() {
    return positions.isEmpty();
  }
}
