package dev.trainyard.standalone.infra;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.DefaultQueryMatcher;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.backend.QueryMatcher;
import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A secondary (non-unique) index of the embedded store, which mongo-java-server itself only accepts
 * and ignores: the documents' key values in the index's order, kept in memory and rebuilt from the
 * collection when the store opens. A query with equality on a prefix of the keys reads only that
 * range, in the order of the remaining keys, so a sorted, limited page stops after its rows;
 * conditions on indexed fields alone (a keyset cursor's bound) are checked on the keys, before a
 * document is read. The same queries use the same index on MongoDB.
 *
 * <p>An index over an array value (a multikey index on MongoDB) is kept but no longer used: the
 * collection then answers by scanning, as before.
 */
final class OrderedIndex extends Index<Object> {
  private static final String ID = "_id";
  private static final Object LOW = new Object();
  private static final Object HIGH = new Object();
  private static final Set<String> LOGICAL = Set.of("$and", "$or", "$nor");

  private final List<String> paths;
  private final boolean[] ascending;
  private final Set<String> indexed;
  private final ConcurrentSkipListMap<Key, Boolean> entries;
  private final Map<Object, Key> byPosition = new ConcurrentHashMap<>();
  private final QueryMatcher matcher = new DefaultQueryMatcher();
  private volatile boolean multikey;

  OrderedIndex(String name, List<IndexKey> keys) {
    super(name, keys, false);
    this.paths = keys.stream().map(IndexKey::getKey).toList();
    this.ascending = new boolean[keys.size()];
    for (int i = 0; i < keys.size(); i++) {
      ascending[i] = keys.get(i).isAscending();
    }
    this.indexed = Set.copyOf(paths);
    this.entries = new ConcurrentSkipListMap<>(this::compare);
  }

  /** A document's place in the index: its key values, then its position (its id). */
  private record Key(Object[] values, Object position) {}

  /**
   * The part of the index a query reads, and what the index already did for it: {@code ordered}
   * when the walk yields the order asked for, {@code covers} when the keys decide the whole query.
   */
  final class Scan {
    private final int prefix;
    private final boolean ordered;
    private final boolean covers;
    private final NavigableSet<Key> range;
    private final Document onKeys;

    private Scan(
        int prefix, boolean ordered, boolean covers, NavigableSet<Key> range, Document onKeys) {
      this.prefix = prefix;
      this.ordered = ordered;
      this.covers = covers;
      this.range = range;
      this.onKeys = onKeys;
    }

    boolean ordered() {
      return ordered;
    }

    boolean covers() {
      return covers;
    }

    /** Better for the query than {@code other}: more keys fixed, then the order served. */
    boolean betterThan(Scan other) {
      return prefix != other.prefix ? prefix > other.prefix : ordered && !other.ordered;
    }

    /** The positions of the documents that may match, in the walk's order. */
    Stream<Object> positions() {
      return keys().map(Key::position);
    }

    /** How many keys meet the conditions on keys (all the query, when {@link #covers}). */
    long count() {
      return onKeys == null ? range.size() : keys().count();
    }

    private Stream<Key> keys() {
      Stream<Key> keys = range.stream();
      return onKeys == null ? keys : keys.filter(k -> matcher.matches(keyDocument(k), onKeys));
    }
  }

  /**
   * How this index serves {@code query} sorted by {@code orderBy} (null or empty: any order), or
   * empty when it cannot narrow the query nor serve its order.
   */
  Optional<Scan> scan(Document query, Document orderBy) {
    if (multikey) {
      return Optional.empty();
    }
    List<Document> conjuncts = new ArrayList<>();
    flatten(query, conjuncts);
    Object[] fixed = new Object[paths.size()];
    int prefix = 0;
    while (prefix < paths.size()
        && (fixed[prefix] = equality(conjuncts, paths.get(prefix))) != null) {
      prefix++;
    }
    Boolean forward = direction(orderBy, prefix);
    if (prefix == 0 && (forward == null || orderBy == null || orderBy.isEmpty())) {
      return Optional.empty();
    }
    List<Document> onKeys = new ArrayList<>();
    int decided = 0;
    for (Document conjunct : conjuncts) {
      if (fixedByRange(conjunct, prefix, fixed)) {
        decided++; // the range holds only keys that meet it
      } else if (onKeysOnly(conjunct)) {
        onKeys.add(conjunct);
        decided++;
      }
    }
    Object[] low = new Object[paths.size()];
    Object[] high = new Object[paths.size()];
    for (int i = 0; i < paths.size(); i++) {
      low[i] = i < prefix ? fixed[i] : LOW;
      high[i] = i < prefix ? fixed[i] : HIGH;
    }
    if (prefix < paths.size()) {
      // seek: where the conditions bound the next key (a keyset cursor's bound), start there
      Bounds next = Bounds.ALL;
      for (Document conjunct : conjuncts) {
        next = next.and(Bounds.of(conjunct, paths.get(prefix)));
      }
      if (next.isEmpty()) {
        return Optional.of(
            new Scan(prefix, forward != null, true, Collections.emptyNavigableSet(), null));
      }
      low[prefix] = ascending[prefix] ? next.lo() : (next.hi() == HIGH ? LOW : next.hi());
      high[prefix] = ascending[prefix] ? next.hi() : (next.lo() == LOW ? HIGH : next.lo());
    }
    NavigableSet<Key> range =
        entries.navigableKeySet().subSet(new Key(low, LOW), true, new Key(high, HIGH), true);
    return Optional.of(
        new Scan(
            prefix,
            forward != null,
            decided == conjuncts.size(),
            forward == Boolean.FALSE ? range.descendingSet() : range,
            onKeys.isEmpty() ? null : new Document("$and", onKeys)));
  }

  /**
   * The values a field may take under a condition, as an interval in the store's value order:
   * {@code lo} is {@link #LOW} and {@code hi} {@link #HIGH} where unbounded. Every bound is taken
   * as inclusive, and a condition it cannot read leaves the field unbounded: the interval holds
   * every value that may match (the conditions are still checked on each key).
   */
  private record Bounds(Object lo, Object hi) {
    static final Bounds ALL = new Bounds(LOW, HIGH);

    static Bounds of(Document condition, String path) {
      Bounds bounds = ALL;
      for (Map.Entry<String, Object> field : condition.entrySet()) {
        Object value = field.getValue();
        if (field.getKey().equals("$and") && value instanceof Collection<?> members) {
          for (Object member : members) {
            bounds = bounds.and(member instanceof Document d ? of(d, path) : ALL);
          }
        } else if (field.getKey().equals("$or") && value instanceof Collection<?> members) {
          Bounds hull = null;
          for (Object member : members) {
            Bounds b = member instanceof Document d ? of(d, path) : ALL;
            hull = hull == null ? b : hull.or(b);
          }
          bounds = bounds.and(hull == null ? ALL : hull);
        } else if (field.getKey().equals(path)) {
          bounds = bounds.and(ofValue(value));
        }
      }
      return bounds;
    }

    private static Bounds ofValue(Object value) {
      if (!(value instanceof Document operators)
          || operators.keySet().stream().noneMatch(k -> k.startsWith("$"))) {
        return isPlain(value) ? new Bounds(value, value) : ALL;
      }
      Bounds bounds = ALL;
      for (Map.Entry<String, Object> op : operators.entrySet()) {
        Object v = op.getValue();
        Bounds b =
            switch (op.getKey()) {
              case "$eq" -> isPlain(v) ? new Bounds(v, v) : ALL;
              case "$lt", "$lte" -> isPlain(v) ? new Bounds(LOW, v) : ALL;
              case "$gt", "$gte" -> isPlain(v) ? new Bounds(v, HIGH) : ALL;
              default -> ALL;
            };
        bounds = bounds.and(b);
      }
      return bounds;
    }

    Bounds and(Bounds other) {
      return new Bounds(
          compareValues(lo, other.lo, true) >= 0 ? lo : other.lo,
          compareValues(hi, other.hi, true) <= 0 ? hi : other.hi);
    }

    Bounds or(Bounds other) {
      return new Bounds(
          compareValues(lo, other.lo, true) <= 0 ? lo : other.lo,
          compareValues(hi, other.hi, true) >= 0 ? hi : other.hi);
    }

    boolean isEmpty() {
      return compareValues(lo, hi, true) > 0;
    }
  }

  /**
   * Whether walking the index forwards (true) or backwards (false) yields {@code orderBy}'s order
   * once the first {@code prefix} keys are fixed; null when neither does.
   */
  private Boolean direction(Document orderBy, int prefix) {
    if (orderBy == null || orderBy.isEmpty()) {
      return Boolean.TRUE;
    }
    Boolean forward = null;
    int next = prefix;
    for (Map.Entry<String, Object> sort : orderBy.entrySet()) {
      int fixedAt = paths.subList(0, prefix).indexOf(sort.getKey());
      if (fixedAt >= 0) {
        continue;
      }
      if (next >= paths.size() || !paths.get(next).equals(sort.getKey())) {
        return null;
      }
      boolean same = (((Number) sort.getValue()).intValue() > 0) == ascending[next];
      if (forward != null && forward != same) {
        return null;
      }
      forward = same;
      next++;
    }
    return forward == null ? Boolean.TRUE : forward;
  }

  /** The conjuncts of a query: its fields and the members of its top-level {@code $and}s. */
  static void flatten(Document query, List<Document> into) {
    for (Map.Entry<String, Object> field : query.entrySet()) {
      if (field.getKey().equals("$and") && field.getValue() instanceof Collection<?> members) {
        for (Object member : members) {
          flatten((Document) member, into);
        }
      } else {
        into.add(new Document(field.getKey(), field.getValue()));
      }
    }
  }

  /** The value {@code path} must equal in every match, or null when no conjunct fixes one. */
  static Object equality(List<Document> conjuncts, String path) {
    for (Document conjunct : conjuncts) {
      Object value = conjunct.get(path);
      if (value != null && isPlain(value)) {
        return value;
      }
    }
    return null;
  }

  /** A value a field equals exactly: not an operator, a pattern, an array, null or missing. */
  private static boolean isPlain(Object value) {
    if (value instanceof Missing
        || value instanceof Collection
        || value instanceof Pattern
        || BsonRegularExpression.isRegularExpression(value)) {
      return false;
    }
    return !(value instanceof Document doc)
        || doc.keySet().stream().noneMatch(k -> k.startsWith("$"));
  }

  /** Whether {@code conjunct} is one of the equalities that fixed the range's first keys. */
  private boolean fixedByRange(Document conjunct, int prefix, Object[] fixed) {
    if (conjunct.size() != 1) {
      return false;
    }
    int at = paths.subList(0, prefix).indexOf(conjunct.keySet().iterator().next());
    return at >= 0 && conjunct.values().iterator().next() == fixed[at];
  }

  /** Whether a condition reads only indexed fields, so the keys alone decide it. */
  private boolean onKeysOnly(Document condition) {
    for (Map.Entry<String, Object> field : condition.entrySet()) {
      String name = field.getKey();
      if (LOGICAL.contains(name) && field.getValue() instanceof Collection<?> members) {
        for (Object member : members) {
          if (!(member instanceof Document d) || !onKeysOnly(d)) {
            return false;
          }
        }
      } else if (name.startsWith("$") || !indexed.contains(name)) {
        return false;
      }
    }
    return true;
  }

  private Document keyDocument(Key key) {
    Document doc = new Document();
    for (int i = 0; i < paths.size(); i++) {
      if (!(key.values()[i] instanceof Missing)) {
        Utils.changeSubdocumentValue(doc, paths.get(i), key.values()[i]);
      }
    }
    return doc;
  }

  private int compare(Key a, Key b) {
    for (int i = 0; i < ascending.length; i++) {
      int c = compareValues(a.values()[i], b.values()[i], ascending[i]);
      if (c != 0) {
        return c;
      }
    }
    return compareValues(a.position(), b.position(), true);
  }

  private static int compareValues(Object a, Object b, boolean ascending) {
    if (a == b) {
      return 0;
    } else if (a == LOW || b == HIGH) {
      return -1;
    } else if (a == HIGH || b == LOW) {
      return 1;
    }
    int c = ValueComparator.asc().compare(a, b);
    return ascending ? c : -c;
  }

  /** The document's key values, or null when one is an array. */
  private Object[] values(Document document) {
    Object[] values = new Object[paths.size()];
    for (int i = 0; i < paths.size(); i++) {
      Object value = Utils.getSubdocumentValueCollectionAware(document, paths.get(i));
      if (value instanceof Collection) {
        return null;
      }
      values[i] = value == null ? Missing.getInstance() : value;
    }
    return values;
  }

  @Override
  public void add(Document document, Object position, MongoCollection<Object> collection) {
    Object[] values = values(document);
    if (values == null) {
      multikey = true;
      return;
    }
    Key key = new Key(values, position);
    entries.put(key, Boolean.TRUE);
    byPosition.put(position, key);
  }

  @Override
  public Object remove(Document document) {
    Object position = document.get(ID);
    Key key = byPosition.remove(position);
    if (key != null) {
      entries.remove(key);
    }
    return position;
  }

  @Override
  public void updateInPlace(
      Document oldDocument,
      Document newDocument,
      Object position,
      MongoCollection<Object> collection) {
    Key old = byPosition.remove(position);
    if (old != null) {
      entries.remove(old);
    }
    add(newDocument, position, collection);
  }

  @Override
  public Object getPosition(Document document) {
    return null; // not unique: the _id index places documents
  }

  @Override
  public void checkAdd(Document document, MongoCollection<Object> collection) {}

  @Override
  public void checkUpdate(
      Document oldDocument, Document newDocument, MongoCollection<Object> collection) {}

  @Override
  public boolean canHandle(Document query) {
    return false; // used through scan(), which also serves the sort and the limit
  }

  @Override
  public Iterable<Object> getPositions(Document query) {
    throw new UnsupportedOperationException("use scan()");
  }

  @Override
  public long getCount() {
    return entries.size();
  }

  @Override
  public long getDataSize() {
    return 0;
  }

  @Override
  public void drop() {
    entries.clear();
    byPosition.clear();
  }
}
