package dev.trainyard.bench.http;

import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOptions;
import dev.trainyard.bench.http.LoadGenerator.Result;
import dev.trainyard.bench.stack.StandaloneProcess;
import dev.trainyard.worker.telemetry.OtlpReceiver;
import dev.trainyard.worker.telemetry.OtlpReceiver.ReceivedSpan;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.bson.RawBsonDocument;

/**
 * Where a submit's time goes, against its floor. The floor is what no implementation on this broker
 * and store can avoid: one Kafka produce → consume round trip on the standalone's broker (producer
 * and consumer set as the gateway's and the worker's) plus one journaled write of a document the
 * size of a queue's on its store. Submits then run at a fixed rate on the same standalone with
 * every trace sampled, and each one's spans split it: {@code gateway} (the request's span outside
 * its command), {@code topic} (command sent → the worker's poll), {@code decide}, {@code store},
 * {@code publish} (the worker's phases), {@code reply} (published → the gateway has the answer).
 *
 * <p>Arguments: {@code <jar> [seconds] [rate/s]}.
 */
public final class SubmitFloorBenchmark {
  private static final int FLOOR_SAMPLES = 400;

  private SubmitFloorBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path jar = StandaloneProcess.jar(args);
    Duration phase = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 30);
    double rate = args.length > 2 ? Double.parseDouble(args[2]) : 50;
    HttpBenchmark.queues = 20;
    try (OtlpReceiver collector = new OtlpReceiver();
        StandaloneProcess stack =
            StandaloneProcess.start(
                jar,
                List.of(),
                Map.of(
                    "MANAGEMENT_TRACING_SAMPLING_PROBABILITY", "1.0",
                    "MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT", collector.endpoint(),
                    "MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_SCHEDULE_DELAY", "500ms"))) {
      LoadGenerator load = new LoadGenerator(stack.baseUrl(), stack.token());
      HttpBenchmark.seed(load);
      load.openLoop(
          "warm-up", rate, Duration.ofSeconds(60), i -> HttpBenchmark.submit(1_000_000 + i));
      Properties ports = ports(stack.data());
      Histogram kafka = kafkaRoundTrips("127.0.0.1:" + ports.getProperty("kafka.port"));
      Histogram store = journaledWrites("mongodb://127.0.0.1:" + ports.getProperty("mongo.port"));
      long from = System.currentTimeMillis() * 1_000_000L;
      Result submits =
          load.openLoop(
              "submitPullRequest @ " + (int) rate + "/s",
              rate,
              phase,
              i -> HttpBenchmark.submit(2_000_000 + i));
      Thread.sleep(3_000); // the last batch of spans
      Map<String, Histogram> split = split(collector.spans(), from);
      print(kafka, store, submits, split);
    }
  }

  private static Properties ports(Path data) throws Exception {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(data.resolve("standalone.properties"))) {
      p.load(in);
    }
    return p;
  }

  /** Produce → consume of one small record, {@value #FLOOR_SAMPLES} times, one at a time (ms). */
  private static Histogram kafkaRoundTrips(String bootstrap) throws Exception {
    String topic = "bench-floor-" + UUID.randomUUID();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    }
    Map<String, Object> producerProps = new LinkedHashMap<>();
    producerProps.put("bootstrap.servers", bootstrap);
    producerProps.put("acks", "all");
    producerProps.put("linger.ms", 0);
    Map<String, Object> consumerProps = new LinkedHashMap<>();
    consumerProps.put("bootstrap.servers", bootstrap);
    consumerProps.put("enable.auto.commit", false);
    try (KafkaProducer<String, String> producer =
            new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer());
        KafkaConsumer<String, String> consumer =
            new KafkaConsumer<>(
                consumerProps, new StringDeserializer(), new StringDeserializer())) {
      TopicPartition partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToEnd(List.of(partition));
      consumer.position(partition);
      Histogram micros = new Histogram(60_000_000L, 3);
      for (int i = 0; i < FLOOR_SAMPLES + 50; i++) {
        long start = System.nanoTime();
        producer.send(new ProducerRecord<>(topic, "q", "{\"n\":" + i + "}")).get();
        ConsumerRecords<String, String> got = ConsumerRecords.empty();
        while (got.isEmpty()) {
          got = consumer.poll(Duration.ofSeconds(1));
        }
        if (i >= 50) { // the first ones warm the clients up
          micros.recordValue((System.nanoTime() - start) / 1_000);
        }
      }
      return micros;
    }
  }

  /** A journaled write of a document as large as the largest queue's, {@value #FLOOR_SAMPLES}×. */
  private static Histogram journaledWrites(String uri) {
    try (MongoClient client = MongoClients.create(uri)) {
      var db = client.getDatabase("trainyard");
      RawBsonDocument largest =
          db.getCollection("queues", RawBsonDocument.class).find().into(new ArrayList<>()).stream()
              .max(
                  (a, b) ->
                      Integer.compare(a.getByteBuffer().remaining(), b.getByteBuffer().remaining()))
              .orElseThrow();
      System.out.printf(
          Locale.ROOT,
          "floor document: %d bytes (the largest queue document)%n",
          largest.getByteBuffer().remaining());
      MongoCollection<Document> scratch =
          db.getCollection("bench_floor").withWriteConcern(WriteConcern.JOURNALED);
      Document copy = new Document(largest);
      Histogram micros = new Histogram(60_000_000L, 3);
      for (int i = 0; i < FLOOR_SAMPLES + 50; i++) {
        copy.put("_id", "floor");
        copy.put("version", i);
        long start = System.nanoTime();
        scratch.replaceOne(Filters.eq("_id", "floor"), copy, new ReplaceOptions().upsert(true));
        if (i >= 50) {
          micros.recordValue((System.nanoTime() - start) / 1_000);
        }
      }
      db.getCollection("bench_floor").drop();
      return micros;
    }
  }

  /**
   * Each submit's segments (ms), from the spans of traces whose command started after {@code
   * fromNanos}.
   */
  static Map<String, Histogram> split(List<ReceivedSpan> spans, long fromNanos) {
    Map<String, ReceivedSpan> byId =
        spans.stream().collect(Collectors.toMap(ReceivedSpan::spanId, s -> s, (a, b) -> a));
    Map<String, List<ReceivedSpan>> children =
        spans.stream().collect(Collectors.groupingBy(ReceivedSpan::parentId));
    Map<String, Histogram> segments = new LinkedHashMap<>();
    for (String segment :
        List.of("gateway", "topic", "load", "decide", "store", "reply", "after reply")) {
      segments.put(segment, new Histogram(60_000_000L, 3));
    }
    for (ReceivedSpan command : spans) {
      if (!command.name().equals("command SubmitPullRequest") || command.startNanos() < fromNanos) {
        continue;
      }
      ReceivedSpan request = byId.get(command.parentId());
      ReceivedSpan worker =
          children.getOrDefault(command.spanId(), List.of()).stream()
              .filter(s -> s.name().equals("worker SubmitPullRequest"))
              .findFirst()
              .orElse(null);
      if (request == null || worker == null) {
        continue;
      }
      Map<String, ReceivedSpan> phases =
          children.getOrDefault(worker.spanId(), List.of()).stream()
              .collect(Collectors.toMap(ReceivedSpan::name, Function.identity(), (a, b) -> a));
      ReceivedSpan publish = phases.get("publish");
      if (publish == null || !phases.containsKey("decide") || !phases.containsKey("store")) {
        continue;
      }
      ReceivedSpan decide = phases.get("decide");
      record(segments, "gateway", request.nanos() - command.nanos());
      record(segments, "topic", worker.startNanos() - command.startNanos());
      record(segments, "load", decide.startNanos() - worker.startNanos());
      record(segments, "decide", decide.nanos());
      record(segments, "store", phases.get("store").nanos());
      record(segments, "reply", command.endNanos() - publish.startNanos());
      record(segments, "after reply", publish.endNanos() - command.endNanos());
    }
    return segments;
  }

  /**
   * One submit's segment, in µs; one the clocks make negative (the gateway heard the reply before
   * the worker's acknowledgements came back, in {@code after reply}) counts as 0.
   */
  private static void record(Map<String, Histogram> segments, String segment, long nanos) {
    segments.get(segment).recordValue(Math.max(0, nanos / 1_000));
  }

  private static double p(Histogram micros, double percentile) {
    return micros.getTotalCount() == 0
        ? Double.NaN
        : micros.getValueAtPercentile(percentile) / 1000.0;
  }

  private static void print(
      Histogram kafka, Histogram store, Result submits, Map<String, Histogram> split) {
    double floor = p(kafka, 50) + p(store, 50);
    System.out.printf(
        Locale.ROOT,
        "%n| floor (%d samples each) | p50 ms | p99 ms |%n|---|---:|---:|%n"
            + "| Kafka produce → consume | %.2f | %.2f |%n"
            + "| journaled write, queue-sized document | %.2f | %.2f |%n"
            + "| floor (sum of the p50s) | %.2f | |%n",
        FLOOR_SAMPLES,
        p(kafka, 50),
        p(kafka, 99),
        p(store, 50),
        p(store, 99),
        floor);
    System.out.printf(
        Locale.ROOT,
        "%n| %s: %d submits, %d errors, %d traced | p50 ms | p99 ms |%n|---|---:|---:|%n",
        submits.name(),
        submits.requests(),
        submits.errors(),
        split.get("gateway").getTotalCount());
    split.forEach(
        (segment, values) ->
            System.out.printf(
                Locale.ROOT, "| %s | %.2f | %.2f |%n", segment, p(values, 50), p(values, 99)));
    System.out.printf(
        Locale.ROOT,
        "| submit, as the client saw it | %.2f | %.2f |%n",
        submits.p50Millis(),
        submits.p99Millis());
    System.out.printf(
        Locale.ROOT, "%nsubmit p50 / floor: %.2f (target <= 3)%n", submits.p50Millis() / floor);
  }
}
