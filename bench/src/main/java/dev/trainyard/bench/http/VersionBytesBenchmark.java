package dev.trainyard.bench.http;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import dev.trainyard.bench.stack.ApiClient;
import dev.trainyard.bench.stack.StandaloneProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.codecs.Codec;

/**
 * What one queue version writes (issue 46): every version rewrites its queue document, which held
 * the ids of up to a day's applied commands before answers had a collection of their own. For each
 * standalone jar given (the previous release's and this one's, in the same run), on a fresh data
 * directory: one queue, then {@code commands} rounds of a submit (a new version) and a cancel of a
 * PR that is not there (a 404, which writes no version). Read from the store afterwards: the queue
 * document's bytes (and those of its remembered ids), and the answer documents' count and bytes.
 *
 * <p>{@code java -jar bench/target/trainyard-bench.jar version-bytes <jar> [<jar> ...] <commands>}
 */
public final class VersionBytesBenchmark {
  private VersionBytesBenchmark() {}

  public static void main(String[] args) throws Exception {
    int commands = Integer.parseInt(args[args.length - 1]);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < args.length - 1; i++) {
      lines.add(measure(Path.of(args[i]), commands));
      System.out.println(lines.get(lines.size() - 1));
    }
    System.out.println();
    lines.forEach(System.out::println);
  }

  private static String measure(Path jar, int rounds) throws Exception {
    int mongoPort = StandaloneProcess.freePort();
    try (StandaloneProcess standalone =
        StandaloneProcess.start(
            jar, List.of(), Map.of("TRAINYARD_MONGO_PORT", Integer.toString(mongoPort)))) {
      ApiClient api = new ApiClient(standalone.baseUrl(), standalone.token());
      api.post("/v1/createQueue", Bodies.queue("bytes"));
      for (long pr = 1; pr <= rounds; pr++) {
        api.post("/v1/submitPullRequest", Bodies.pr("bytes", pr));
        int missing =
            api.postAsync("/v1/cancelPullRequest", Bodies.pr("bytes", 1_000_000 + pr)).get();
        if (missing != 404) {
          throw new IllegalStateException("a cancel of a PR never submitted answered " + missing);
        }
      }
      try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + mongoPort)) {
        MongoDatabase db = client.getDatabase("trainyard");
        RawBsonDocument queue =
            db.getCollection("queues", RawBsonDocument.class)
                .find(new Document("view", new Document("$ne", null)))
                .first();
        long queueBytes = queue.getByteBuffer().remaining();
        long recentBytes =
            queue.containsKey("recent")
                ? new RawBsonDocument(new Document("recent", queue.get("recent")), codec(db))
                    .getByteBuffer()
                    .remaining()
                : 0;
        long answers = 0;
        long answerBytes = 0;
        for (RawBsonDocument a :
            db.getCollection("command_answers", RawBsonDocument.class).find()) {
          answers++;
          answerBytes += a.getByteBuffer().remaining();
        }
        long perAnswer = answers == 0 ? 0 : answerBytes / answers;
        return String.format(
            "VERSION-BYTES jar=%s rounds=%d versions=%d queue-document=%d bytes (remembered ids"
                + " %d) answers=%d of %d bytes each: a submit's version writes %d bytes of queue"
                + " document and answer, a 404 cancel %d",
            jar.getFileName(),
            rounds,
            queue.get("version").asNumber().longValue(),
            queueBytes,
            recentBytes,
            answers,
            perAnswer,
            queueBytes + perAnswer,
            perAnswer);
      }
    }
  }

  private static Codec<Document> codec(MongoDatabase db) {
    return db.getCodecRegistry().get(Document.class);
  }
}
