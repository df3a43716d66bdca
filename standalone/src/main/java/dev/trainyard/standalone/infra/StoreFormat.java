package dev.trainyard.standalone.infra;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the store file encodes what it holds, and the upgrade of a file written before. Version 0 is
 * the H2 backend's own (every document and index key Java-serialized); version 1 stores documents
 * as BSON ({@link DocumentType}) and unique-index keys as ordered BSON ({@link IndexKeyType}). The
 * map names stay those of the H2 backend, so renaming or dropping a collection finds its maps.
 */
final class StoreFormat {
  static final int BSON = 1;

  /**
   * H2's names: {@code databases.<db>.<collection>} and {@code <db>.<collection>._index_<name>}.
   */
  static final String DATA_PREFIX = "databases.";

  static final String INDEX_INFIX = "._index_";

  /** H2's name for a collection's metadata map (its data size), which keeps H2's encoding. */
  static final String META_PREFIX = "meta.";

  private static final Logger log = LoggerFactory.getLogger(StoreFormat.class);

  private StoreFormat() {}

  /**
   * Opens the store in {@code fileName} (in memory when null) in version {@link #BSON}, upgrading a
   * file of version 0 first. The upgrade runs on a store that never commits by itself and ends in
   * one commit, so a process killed during it, or an upgrade that fails, leaves the file as it was,
   * and the next start upgrades it again.
   */
  static MVStore open(String fileName) {
    if (fileName != null) {
      MVStore store = withoutOwnCommits(fileName);
      boolean upgraded = false;
      try {
        if (store.getStoreVersion() < BSON) {
          upgrade(store);
        }
        upgraded = true;
      } finally {
        if (upgraded) {
          store.close();
        } else {
          store.closeImmediately(); // close() would write the half-done upgrade
        }
      }
    }
    // the backend commits (DurableH2Backend): MVStore's own commits would not keep a prefix
    MVStore store = fileName == null ? MVStore.open(null) : withoutOwnCommits(fileName);
    if (store.getStoreVersion() < BSON) {
      // in memory: nothing there was stored the old way
      store.setStoreVersion(BSON);
      store.commit();
    }
    return store;
  }

  /**
   * The store with no commit but its user's. Turning the delay off is not enough; MVStore also
   * commits when unsaved pages pass a memory threshold (on the writing thread, in the middle of a
   * write), which a large upgrade does.
   */
  static MVStore withoutOwnCommits(String fileName) {
    return new MVStore.Builder()
        .fileName(fileName)
        .autoCommitDisabled()
        .autoCommitBufferSize(0)
        .open();
  }

  static <K> MVMap<K, Document> documents(MVStore store, String name) {
    return store.openMap(name, new MVMap.Builder<K, Document>().valueType(new DocumentType()));
  }

  static MVMap<KeyValue, Object> index(MVStore store, String name) {
    return store.openMap(name, new MVMap.Builder<KeyValue, Object>().keyType(new IndexKeyType()));
  }

  private static void upgrade(MVStore store) {
    int maps = 0;
    long entries = 0;
    for (String name : List.copyOf(store.getMapNames())) {
      if (name.startsWith(DATA_PREFIX)) {
        entries += rewrite(store, name, () -> documents(store, name));
        maps++;
      } else if (!name.startsWith(META_PREFIX) && name.contains(INDEX_INFIX)) {
        entries += rewrite(store, name, () -> index(store, name));
        maps++;
      }
    }
    store.setStoreVersion(BSON);
    store.commit();
    if (maps > 0) {
      log.info(
          "upgraded the store to BSON documents and ordered index keys: {} maps, {} entries",
          maps,
          entries);
    }
  }

  /**
   * Reads a map the old way, removes it, and writes the same entries into a new one of its name.
   */
  static <K, V> int rewrite(MVStore store, String name, Supplier<MVMap<K, V>> reopened) {
    MVMap<K, V> old = store.openMap(name);
    Map<K, V> entries = new LinkedHashMap<>(old);
    store.removeMap(old);
    MVMap<K, V> rewritten = reopened.get();
    rewritten.putAll(entries);
    return entries.size();
  }
}
