package dev.trainyard.standalone.infra;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DatabaseResolver;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.oplog.Oplog;
import io.netty.channel.Channel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The H2 file backend, made safe for the standalone's use:
 *
 * <ul>
 *   <li>Every write is committed, and its chunk written to the file, before it is acknowledged,
 *       unless it asks for no journaling ({@code writeConcern: {j: false}}). H2's MVStore otherwise
 *       commits in the background about once a second, so a killed process (SIGKILL, OOM kill)
 *       would lose writes the services had already been told were durable — and a worker that
 *       committed its Kafka offsets after such a write would lose the command. A write that asks
 *       for no journaling is left to the next commit, as MongoDB leaves it to the next journal
 *       flush (ADR 0022). Any other command commits what is unsaved before it is answered, so what
 *       a reader sees is durable, as when every write was committed. (Commits are not forced to the
 *       disk: a power loss may lose the last of them.)
 *   <li>What a crash keeps is a prefix of the writes, in the order they were applied, as MongoDB's
 *       journal keeps one (ADR 0051). MVStore's commit is not a snapshot: it takes each map's
 *       newest state in turn while writes go on, so on its own it may hold a later write without an
 *       earlier one, or a document without its index entry. Here a write is applied under the read
 *       side of a lock and a commit takes the write side, so a commit never sees part of a write;
 *       commits are grouped, so the writes stop once for all the callers one commit serves;
 *       MVStore's own background commits are turned off, and this backend commits what is unsaved
 *       every {@link #COMMIT_EVERY} and rewrites sparse chunks, as they did.
 *   <li>Queries use the indexes the services create, as they do on MongoDB. mongo-java-server uses
 *       a unique index only for a query on exactly its keys, so the queue's versioned write ({@code
 *       _id} and {@code version}) read every queue; and it ignores the other indexes, so a sorted
 *       page of 100,000 rows read and sorted all of them. Here a query fixing {@code _id} reads
 *       that one document, one holding {@code _id} to an anchored pattern reads the ids with its
 *       literal prefix, and the others go through an {@link OrderedIndex}.
 *   <li>Every command holds on to the store version it reads. A query scans a snapshot of the
 *       collection; without that registration, commits and the background compaction of other
 *       connections may drop the chunks the scan still has to read once they are older than the
 *       retention time, and a long scan (tens of thousands of documents) failed with "Chunk … not
 *       found" — a 500 for a plain listing.
 *   <li>Documents and unique-index keys are stored as BSON, and index keys are ordered by value
 *       ({@link StoreFormat}, ADR 0020): the H2 backend Java-serialized each, and serialized both
 *       keys again on every comparison of an index lookup. A file written the old way is upgraded
 *       when it is opened.
 *   <li>A query answers copies of the documents, taken while it holds the collection. The stored
 *       instances are what a replace rewrites in place, field by field, and the answer is encoded
 *       after the collection is let go, so a read racing a write could return half of each.
 * </ul>
 */
final class DurableH2Backend extends H2Backend {
  private static final Logger log = LoggerFactory.getLogger(DurableH2Backend.class);

  /** The commands that change what is stored (a wire message carries one of them). */
  private static final Set<String> WRITES =
      Set.of(
          "insert",
          "update",
          "delete",
          "findandmodify",
          "create",
          "createindexes",
          "collmod",
          "dropindexes",
          "drop",
          "dropdatabase",
          "renamecollection");

  /**
   * Told of each query no index serves (tests: MongoDB's {@code notablescan}, reported); null until
   * set, and while the superclass's constructor opens the stored collections.
   */
  private volatile Consumer<String> unindexed;

  /** How often what is unsaved is committed when no journaled write or read commits it first. */
  static final Duration COMMIT_EVERY = Duration.ofSeconds(1);

  /** The chunks' fill rate under which a timed compaction rewrites some of them. */
  private static final int COMPACT_BELOW_FILL_PERCENT = 60;

  /** The most a timed compaction rewrites at once, so writes never wait long behind it. */
  private static final int COMPACT_BYTES = 1 << 20;

  /** Writes apply under its read side, commits take its write side: no commit sees half a write. */
  private final ReentrantReadWriteLock applying = new ReentrantReadWriteLock();

  /** Guards the grouped commits' counters ({@link #commitDurably(Runnable)}). */
  private final Object group = new Object();

  /**
   * Commits asked for so far; the commits that succeeded hold the first {@code committedThrough}.
   */
  private long asked;

  private long committedThrough;

  /** Whether a caller is committing for the group now. */
  private boolean committing;

  /** The timed commits and compaction; null in memory and when a test turns them off. */
  private final ScheduledExecutorService housekeeping;

  DurableH2Backend(String fileName) {
    this(fileName, COMMIT_EVERY);
  }

  /**
   * @param commitEvery how often to commit what is unsaved and compact; zero for never, as a test
   *     needs that decides each case by the writes alone
   */
  DurableH2Backend(String fileName, Duration commitEvery) {
    super(StoreFormat.open(fileName));
    if (fileName == null || commitEvery.isZero()) {
      this.housekeeping = null;
    } else {
      this.housekeeping =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread thread = new Thread(r, "store-commits");
                thread.setDaemon(true);
                return thread;
              });
      long millis = commitEvery.toMillis();
      housekeeping.scheduleWithFixedDelay(
          this::commitAndCompact, millis, millis, TimeUnit.MILLISECONDS);
    }
  }

  void onUnindexedQuery(Consumer<String> listener) {
    this.unindexed = listener;
  }

  private void unindexed(String shape) {
    Consumer<String> listener = unindexed;
    if (listener != null) {
      listener.accept(shape);
    }
  }

  @Override
  public Document handleCommand(
      Channel channel, String databaseName, String command, Document query) {
    Supplier<Document> handled =
        () -> readingOneVersion(() -> super.handleCommand(channel, databaseName, command, query));
    if (!isWrite(command, query)) {
      Document result = handled.get();
      // what a read saw is durable before it is answered (read-committed): a reader may act on
      // it, as the worker deletes the entry documents a queue's version no longer names
      commitSeen();
      return result;
    }
    Document result;
    applying.readLock().lock();
    try {
      result = handled.get();
    } finally {
      applying.readLock().unlock();
    }
    if (journaled(query)) {
      commitDurably();
    }
    return result;
  }

  /** A command that changes what is stored, an aggregation writing its output included. */
  private static boolean isWrite(String command, Document query) {
    String name = command.toLowerCase(Locale.ROOT);
    if (WRITES.contains(name)) {
      return true;
    }
    return name.equals("aggregate")
        && query.get("pipeline") instanceof List<?> stages
        && stages.stream()
            .anyMatch(
                stage ->
                    stage instanceof Document d
                        && (d.containsKey("$out") || d.containsKey("$merge")));
  }

  /** Commits what a read saw when some of it is unsaved. */
  private void commitSeen() {
    if (getMvStore().hasUnsavedChanges()) {
      commitDurably();
    }
  }

  /** Returns once everything applied before the call is committed and in the file. */
  private void commitDurably() {
    commitDurably(() -> {});
  }

  /**
   * Returns once everything applied before the call is committed and in the file. Commits are
   * grouped: one caller at a time commits, for itself and for every caller that asked before it
   * took {@link #applying}; the others wait, and return once a commit that covers them succeeded.
   * So the writes stop once for however many journaled writes and reads one commit serves. A commit
   * that fails covers no one: each waiting caller then commits for itself and meets the failure
   * itself.
   *
   * @param first what the caller that commits runs before it stops the writes (the timed
   *     compaction), so no commit waits for it while holding them
   */
  private void commitDurably(Runnable first) {
    synchronized (group) {
      long ticket = ++asked;
      while (committing) {
        waitForGroup();
      }
      if (committedThrough >= ticket) {
        return;
      }
      committing = true;
    }
    long through = 0;
    boolean committed = false;
    try {
      first.run();
      applying.writeLock().lock();
      try {
        synchronized (group) {
          // every caller that asked so far applied its writes before asking, and none applies now
          through = asked;
        }
        // with MVStore's own commits off it has no serializer thread: the chunk is encoded and
        // written to the file on this thread before commit returns
        getMvStore().commit();
        committed = true;
      } finally {
        applying.writeLock().unlock();
      }
    } finally {
      synchronized (group) {
        if (committed) {
          committedThrough = Math.max(committedThrough, through);
        }
        committing = false;
        group.notifyAll();
      }
    }
  }

  private void waitForGroup() {
    try {
      group.wait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for the store's commit", e);
    }
  }

  /** A commit asked of the backend itself goes through the same lock. */
  @Override
  public void commit() {
    commitDurably();
  }

  /**
   * The timed work MVStore's background writer did: rewrite up to {@link #COMPACT_BYTES} of the
   * live pages of partly filled chunks when the chunks' fill rate is under {@link
   * #COMPACT_BELOW_FILL_PERCENT}, so their space is reused, then commit what is unsaved. A rewrite
   * changes no value and runs while writes go on; the commit that holds it stops them.
   */
  private void commitAndCompact() {
    try {
      MVStore store = getMvStore();
      if (!store.isClosed()) {
        commitDurably(() -> store.compact(COMPACT_BELOW_FILL_PERCENT, COMPACT_BYTES));
      }
    } catch (Throwable e) {
      // a store closed in between (a kill in a test, shutdown) is not news; anything else is
      // logged, and the next round tries again (a scheduled task that throws is never run again)
      if (!getMvStore().isClosed()) {
        log.warn("the store's timed commit failed: {}", e.toString());
      }
    }
  }

  @Override
  public void close() {
    if (housekeeping != null) {
      housekeeping.shutdown();
      try {
        housekeeping.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    applying.writeLock().lock();
    try {
      super.close();
    } finally {
      applying.writeLock().unlock();
    }
  }

  /**
   * False when the write's concern asks for no journaling. A message ({@code OP_MSG}, all the
   * driver sends) is handled as the command it carries, through {@link #handleCommand}.
   */
  static boolean journaled(Document command) {
    return !(command.get("writeConcern") instanceof Document concern)
        || !Boolean.FALSE.equals(concern.get("j"));
  }

  @Override
  protected MongoDatabase openOrCreateDatabase(String databaseName) {
    return new Database(databaseName);
  }

  /**
   * A database whose collections use their indexes. {@link H2Database}'s constructor opens the
   * stored collections and indexes through the overrides here, before a field of a subclass is set;
   * an inner class reaches the store through its outer instance, which is set first.
   */
  private final class Database extends H2Database {
    /** The stage the driver's {@code countDocuments} ends its pipeline with. */
    private static final Document COUNT_STAGE =
        new Document("$group", new Document("_id", 1).append("n", new Document("$sum", 1)));

    Database(String name) {
      super(name, getMvStore(), getCursorRegistry());
    }

    @Override
    protected MongoCollection<Object> openOrCreateCollection(
        String collectionName, CollectionOptions options) {
      String fullName = getFullCollectionNamespace(collectionName);
      MVStore store = getMvStore();
      return new IndexedCollection(
          this,
          collectionName,
          options,
          StoreFormat.documents(store, StoreFormat.DATA_PREFIX + fullName),
          store.openMap(StoreFormat.META_PREFIX + fullName),
          cursorRegistry,
          DurableH2Backend.this::unindexed);
    }

    @Override
    protected Index<Object> openOrCreateUniqueIndex(
        String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
      String mapName =
          getFullCollectionNamespace(collectionName) + StoreFormat.INDEX_INFIX + indexName;
      return new StoredUniqueIndex(
          StoreFormat.index(getMvStore(), mapName), indexName, keys, sparse);
    }

    @Override
    protected Index<Object> openOrCreateSecondaryIndex(
        String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
      // a sparse index leaves out documents a query may still match: not used, as before
      return sparse
          ? super.openOrCreateSecondaryIndex(collectionName, indexName, keys, true)
          : new OrderedIndex(indexName, keys);
    }

    @Override
    public Document handleCommand(
        Channel channel,
        String command,
        Document query,
        DatabaseResolver databaseResolver,
        Oplog oplog) {
      if (command.equalsIgnoreCase("aggregate")) {
        Optional<Document> counted = countDocuments(query);
        if (counted.isPresent()) {
          return counted.get();
        }
      }
      return super.handleCommand(channel, command, query, databaseResolver, oplog);
    }

    /**
     * The driver's {@code countDocuments} ({@code $match}, then a {@code $group} counting),
     * answered by the collection's count, which an index can serve without reading the documents;
     * the aggregation would read every document of the collection.
     */
    private Optional<Document> countDocuments(Document command) {
      if (!(command.get("aggregate") instanceof String name)
          || !(command.get("pipeline") instanceof List<?> pipeline)
          || pipeline.size() != 2
          || !COUNT_STAGE.equals(pipeline.get(1))
          || !(pipeline.get(0) instanceof Document first)
          || first.size() != 1
          || !(first.get("$match") instanceof Document match)) {
        return Optional.empty();
      }
      MongoCollection<Object> collection = resolveCollection(name, false);
      if (collection == null) {
        return Optional.empty();
      }
      int n = collection.count(match, 0, 0);
      List<Document> batch = new ArrayList<>();
      if (n > 0) {
        batch.add(new Document("_id", 1).append("n", n));
      }
      Document cursor =
          new Document("id", 0L)
              .append("ns", getFullCollectionNamespace(name))
              .append("firstBatch", batch);
      Document response = new Document("cursor", cursor);
      Utils.markOkay(response);
      return Optional.of(response);
    }
  }

  /**
   * A collection that reads by {@code _id} when a query fixes it, and otherwise through its best
   * {@link OrderedIndex}, in the index's order when that is the order asked for.
   */
  private static final class IndexedCollection extends H2Collection {
    private static final String ID = "_id";
    private final Consumer<String> unindexed;

    IndexedCollection(
        MongoDatabase database,
        String name,
        CollectionOptions options,
        MVMap<Object, Document> data,
        MVMap<String, Object> meta,
        CursorRegistry cursors,
        Consumer<String> unindexed) {
      super(database, name, options, data, meta, cursors);
      this.unindexed = unindexed;
    }

    @Override
    protected QueryResult queryDocuments(
        Document query,
        Document orderBy,
        int skip,
        int limit,
        int batchSize,
        Document fieldSelector) {
      if (orderBy != null && orderBy.containsKey("$natural")) {
        return super.queryDocuments(query, orderBy, skip, limit, batchSize, fieldSelector);
      }
      Optional<Iterable<Object>> byId = byId(query);
      if (byId.isPresent()) {
        return matchDocuments(query, byId.get(), orderBy, skip, limit, batchSize, fieldSelector);
      }
      Optional<List<Object>> byPrefix = byIdPrefix(query);
      if (byPrefix.isPresent()) {
        // a document deleted since its id was read is skipped, as a scan skips it
        Stream<Document> documents =
            byPrefix.get().stream().map(this::getDocument).filter(Objects::nonNull);
        return matchDocumentsFromStream(
            query, documents, skip, limit, batchSize, deriveComparator(orderBy), fieldSelector);
      }
      Optional<OrderedIndex.Scan> scan = scan(query, orderBy);
      if (scan.isEmpty()) {
        reportUnlessIndexed("find", query, orderBy);
        return super.queryDocuments(query, orderBy, skip, limit, batchSize, fieldSelector);
      }
      Stream<Document> documents =
          scan.get().positions().map(this::getDocument).filter(Objects::nonNull);
      return matchDocumentsFromStream(
          query,
          documents,
          skip,
          limit,
          batchSize,
          scan.get().ordered() ? null : deriveComparator(orderBy),
          fieldSelector);
    }

    /**
     * Copies of the matched documents, taken while the query holds the collection.
     * mongo-java-server answers with the stored instances and encodes them after letting the
     * collection go, while a replace rewrites the stored instance field by field: a read racing a
     * write could otherwise return half of each (a queue document's new entry tags beside its old
     * version). A replace puts new values in, it never changes an old one, so a copy of the top
     * level suffices.
     */
    @Override
    protected QueryResult createQueryResult(List<Document> matched, int batchSize) {
      List<Document> copies = new ArrayList<>(matched.size());
      for (Document document : matched) {
        copies.add(new Document(document));
      }
      return super.createQueryResult(copies, batchSize);
    }

    /** Counted on the index alone when it decides the whole query. */
    @Override
    public int count(Document query, int skip, int limit) {
      Optional<OrderedIndex.Scan> scan = scan(query, null);
      if (scan.isEmpty() || !scan.get().covers()) {
        if (scan.isEmpty() && !query.isEmpty()) {
          reportUnlessIndexed("count", query, null);
        }
        return super.count(query, skip, limit);
      }
      long n = Math.max(0, scan.get().count() - Math.max(skip, 0));
      return (int) (limit > 0 ? Math.min(n, limit) : n);
    }

    /**
     * Reports a query whose fields lead no index of the collection (an index whose first key the
     * query constrains would serve it on MongoDB, sparse and unique ones included), by its shape:
     * the fields it constrains and the order it asks for.
     */
    private void reportUnlessIndexed(String operation, Document query, Document orderBy) {
      List<Document> conjuncts = new ArrayList<>();
      OrderedIndex.flatten(query, conjuncts);
      java.util.SortedSet<String> fields = new java.util.TreeSet<>();
      conjuncts.forEach(c -> fields.addAll(c.keySet()));
      for (Index<Object> index : getIndexes()) {
        if (fields.contains(index.getKeys().get(0).getKey())) {
          return;
        }
      }
      unindexed.accept(
          getCollectionName()
              + " "
              + operation
              + " "
              + fields
              + (orderBy == null || orderBy.isEmpty() ? "" : " sort " + orderBy));
    }

    /** The document's position when the query fixes {@code _id} (with other conditions or not). */
    private Optional<Iterable<Object>> byId(Document query) {
      List<Document> conjuncts = new ArrayList<>();
      OrderedIndex.flatten(query, conjuncts);
      Object id = OrderedIndex.equality(conjuncts, ID);
      if (id == null) {
        return Optional.empty();
      }
      for (Index<Object> index : getIndexes()) {
        if (index.isUnique()
            && index.getKeys().size() == 1
            && index.getKeys().get(0).getKey().equals(ID)) {
          Object position = index.getPosition(new Document(ID, id));
          return Optional.of(position == null ? List.of() : List.of(position));
        }
      }
      return Optional.empty();
    }

    /**
     * The documents whose {@code _id} starts with the literal prefix of an anchored pattern the
     * query holds {@code _id} to ({@link RegexPrefix}), as MongoDB bounds its {@code _id} index
     * scan: a repository's queues ({@code ^org/host/owner/name:}) are read without reading every
     * queue of every organization. The whole query is still matched against each.
     */
    private Optional<List<Object>> byIdPrefix(Document query) {
      List<Document> conjuncts = new ArrayList<>();
      OrderedIndex.flatten(query, conjuncts);
      for (Document conjunct : conjuncts) {
        Object value = conjunct.get(ID);
        if (value == null || !BsonRegularExpression.isRegularExpression(value)) {
          continue;
        }
        String prefix;
        try {
          BsonRegularExpression regex = BsonRegularExpression.convertToRegularExpression(value);
          prefix = RegexPrefix.of(regex.getPattern(), regex.getOptions());
        } catch (RuntimeException unusual) {
          continue; // a form the server reads otherwise ({$regex: /…/}): it scans, as before
        }
        if (prefix.isEmpty()) {
          continue;
        }
        for (Index<Object> index : getIndexes()) {
          if (index instanceof StoredUniqueIndex ids
              && index.getKeys().size() == 1
              && index.getKeys().get(0).getKey().equals(ID)) {
            return Optional.of(ids.positionsWithPrefix(prefix));
          }
        }
      }
      return Optional.empty();
    }

    private Optional<OrderedIndex.Scan> scan(Document query, Document orderBy) {
      OrderedIndex.Scan best = null;
      for (Index<Object> index : getIndexes()) {
        if (index instanceof OrderedIndex ordered) {
          Optional<OrderedIndex.Scan> scan = ordered.scan(query, orderBy);
          if (scan.isPresent() && (best == null || scan.get().betterThan(best))) {
            best = scan.get();
          }
        }
      }
      return Optional.ofNullable(best);
    }
  }

  private Document readingOneVersion(Supplier<Document> command) {
    MVStore store = getMvStore();
    MVStore.TxCounter reading = store.registerVersionUsage();
    try {
      return command.get();
    } finally {
      store.deregisterVersionUsage(reading);
    }
  }
}
