package dev.trainyard.gateway.scm.github;

import dev.trainyard.common.view.Collections;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.bson.Document;
import org.springframework.data.mongodb.core.FindAndModifyOptions;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.mongodb.core.query.Update;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Every name a GitHub repository was delivered under, by GitHub's id of it, which a rename or a
 * transfer keeps: a queue created as {@code acme/webapp} still gets the deliveries of the
 * repository once it is {@code acme/storefront} or {@code shop/webapp}. Its calls on the old name
 * reach the repository through GitHub's redirects.
 */
@Component
public class GithubRepositoryNames {
  private static final int MAX_NAMES = 50;
  private final ReactiveMongoTemplate mongo;

  public GithubRepositoryNames(ReactiveMongoTemplate mongo) {
    this.mongo = mongo;
  }

  /**
   * Records that repository {@code id} (0: GitHub did not say) is called {@code name} and had
   * {@code former} names; answers every name it is known by, {@code name} first.
   */
  public Mono<List<String>> remember(long id, String name, List<String> former) {
    Set<String> given = new LinkedHashSet<>();
    given.add(name);
    given.addAll(former);
    if (id == 0) {
      return Mono.just(List.copyOf(given));
    }
    Update update = new Update().addToSet("names").each(given.toArray());
    return mongo
        .findAndModify(
            Query.query(Criteria.where("_id").is(id)),
            update,
            FindAndModifyOptions.options().upsert(true).returnNew(true),
            Document.class,
            Collections.GITHUB_REPOSITORIES)
        .map(
            doc -> {
              Set<String> known = new LinkedHashSet<>(given);
              known.addAll(doc.getList("names", String.class, List.of()));
              return new ArrayList<>(known).subList(0, Math.min(known.size(), MAX_NAMES));
            })
        .defaultIfEmpty(List.copyOf(given));
  }
}
