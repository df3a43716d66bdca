package dev.trainyard.worker.store;

import com.mongodb.MongoException;
import com.mongodb.WriteConcern;
import java.util.List;
import java.util.function.Supplier;
import org.bson.Document;

/**
 * Whether the write concern of the queue store keeps the guarantee it is there for. A version wins
 * its race by a conditional single-document write (ADR 0019); acknowledged by the primary alone
 * ({@code w=1}), the write can be rolled back when that primary fails over, and the loser of a race
 * already re-decided, so a 200 names a version that is gone. The default is {@code w: majority}
 * ({@code StoreClient}); a connection string may name another. Refused: an unacknowledged concern,
 * and on a replica set a number of members below its majority. A standalone server (or the embedded
 * store) has one member, so any acknowledged concern is its majority.
 */
final class WriteConcernCheck {
  private WriteConcernCheck() {}

  /**
   * @param hello the server's answer to {@code hello}, asked only when {@code concern} names a
   *     number of members
   * @throws IllegalStateException when the concern is below a majority, saying why
   */
  static void require(WriteConcern concern, Supplier<Document> hello) {
    if (!concern.isAcknowledged()) {
      throw refused(concern, "writes are not acknowledged");
    }
    if (!(concern.getWObject() instanceof Integer w)) {
      return; // the default, "majority", or a tag set the operator defined
    }
    Document answer;
    try {
      answer = hello.get();
    } catch (MongoException e) {
      return; // not told: the embedded store knows no hello; a replica set does
    }
    if (answer == null || answer.getString("setName") == null) {
      return;
    }
    // every voting member the answer names: data-bearing (hosts, passives) and arbiters
    int members =
        answer.getList("hosts", Object.class, List.of()).size()
            + answer.getList("passives", Object.class, List.of()).size()
            + answer.getList("arbiters", Object.class, List.of()).size();
    int majority = members / 2 + 1;
    if (w < majority) {
      throw refused(
          concern,
          "w="
              + w
              + " is below the majority ("
              + majority
              + " of "
              + members
              + " members) of replica set "
              + answer.getString("setName"));
    }
  }

  private static IllegalStateException refused(WriteConcern concern, String why) {
    return new IllegalStateException(
        "the queue store's write concern "
            + concern
            + " is refused: "
            + why
            + ". A queue version is decided by a conditional write that must survive a failover,"
            + " or a 200 could name a version the new primary rolled back. Remove w= from"
            + " SPRING_MONGODB_URI (trainyard asks for w=majority) or set w=majority.");
  }
}
