package dev.trainyard.gateway.pulls;

import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.TestRunDocument;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.bson.Document;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.domain.Sort;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Stores impacted-target lists outside the queue aggregate (a 20 MiB list must always fit): sorted,
 * de-duplicated, split into chunks well below MongoDB's 16 MiB document limit and keyed by the
 * list's SHA-256, so storing the same list twice is one idempotent write.
 */
@Component
public class ImpactedTargetsStore {
  static final int MAX_CHUNK_CHARS = 4 * 1024 * 1024;

  /**
   * How long a stored list is kept after the last submission that stored it: the testing details of
   * runs older than that show no impacted targets.
   */
  public static final Duration KEPT = Duration.ofDays(30);

  private final ReactiveMongoTemplate mongo;
  private final Clock clock;

  @Autowired
  public ImpactedTargetsStore(ReactiveMongoTemplate mongo) {
    this(mongo, Clock.systemUTC());
  }

  ImpactedTargetsStore(ReactiveMongoTemplate mongo, Clock clock) {
    this.mongo = mongo;
    this.clock = clock;
  }

  public Mono<ImpactedTargets> store(List<String> targets) {
    List<String> sorted = List.copyOf(new TreeSet<>(targets));
    String digest = digest(sorted);
    return Flux.fromIterable(chunks(sorted))
        .index()
        .concatMap(
            chunk ->
                mongo.save(
                    new Document("_id", digest + ":" + chunk.getT1())
                        .append("digest", digest)
                        .append("index", chunk.getT1())
                        .append("targets", chunk.getT2())
                        .append("storedAt", Date.from(clock.instant())),
                    Collections.IMPACTED_TARGETS))
        .then(Mono.just(ImpactedTargets.of(sorted, digest)));
  }

  /**
   * The union of the stored lists {@code refs} name, sorted; {@code ["ALL"]} when one of them is
   * every target.
   */
  public Mono<List<String>> union(List<String> refs) {
    if (refs.contains(TestRunDocument.TargetRefs.ALL)) {
      return Mono.just(List.of(TestRunDocument.TargetRefs.ALL));
    }
    return Flux.fromIterable(refs)
        .concatMap(
            digest ->
                mongo.find(
                    Query.query(Criteria.where("digest").is(digest)).with(Sort.by("index")),
                    Document.class,
                    Collections.IMPACTED_TARGETS))
        .flatMapIterable(chunk -> chunk.getList("targets", String.class))
        .collect(Collectors.toCollection(TreeSet::new))
        .map(List::copyOf);
  }

  private static List<List<String>> chunks(List<String> sorted) {
    List<List<String>> chunks = new java.util.ArrayList<>();
    int start = 0;
    int chars = 0;
    for (int i = 0; i < sorted.size(); i++) {
      chars += sorted.get(i).length() + 16;
      if (chars > MAX_CHUNK_CHARS) {
        chunks.add(sorted.subList(start, i));
        start = i;
        chars = sorted.get(i).length() + 16;
      }
    }
    chunks.add(sorted.subList(start, sorted.size()));
    return chunks;
  }

  private static String digest(List<String> sorted) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String target : sorted) {
        sha.update(target.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }
}
