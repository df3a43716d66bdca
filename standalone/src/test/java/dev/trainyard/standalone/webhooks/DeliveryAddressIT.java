package dev.trainyard.standalone.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.Filters;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.net.OutboundGuard;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.webhook.EndpointSecret;
import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.common.webhook.WebhookDelivery;
import dev.trainyard.common.webhook.WebhookEndpoint;
import dev.trainyard.standalone.infra.DocumentStore;
import dev.trainyard.standalone.support.WebhookReceiver;
import dev.trainyard.webhooks.delivery.DeliveryStore;
import dev.trainyard.webhooks.delivery.DeliveryTelemetry;
import dev.trainyard.webhooks.delivery.Dispatcher;
import dev.trainyard.webhooks.delivery.RetrySchedule;
import dev.trainyard.webhooks.endpoints.EndpointStore;
import java.io.DataInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * The dispatcher's connections go where the outbound guard looked (API.md §6): a name that resolved
 * to a public address when its endpoint was created and to an internal one at delivery is refused
 * before any connection; the connection goes to the checked address with the URL's name in the Host
 * header and TLS SNI; a 3xx is not followed. DNS is answered by the test, and every connection a
 * broken guard could make goes to a loopback receiver.
 */
class DeliveryAddressIT {
  /** An event as the worker writes it (the receiver holds every delivery to the document). */
  private static final String SUBMITTED =
      "{\"type\":\"pull_request.submitted\",\"action\":\"submitted\",\"status\":\"not_ready\","
          + "\"author\":\"ada\",\"http_details_url\":\"http://127.0.0.1/ui/\",\"pr_number\":1,"
          + "\"repository\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"rocket\"},"
          + "\"target_branch\":\"main\",\"timestamp\":\"2026-11-27T00:00:00.000Z\","
          + "\"submitted_reason\":\"API_REQUESTED\"}";

  private static final String HOST = "hooks.rebinding.test";
  private static final String PUBLIC = "93.184.216.34";
  private static final String SLOW = "slow.rebinding.test";
  private final Map<String, List<String>> dns = new ConcurrentHashMap<>();
  private final List<String> lookedUpOn = new CopyOnWriteArrayList<>();
  private final CountDownLatch slowAnswers = new CountDownLatch(1);
  private final OutboundGuard.Resolver resolver =
      host -> {
        lookedUpOn.add(Thread.currentThread().getName());
        if (host.equals(SLOW)) {
          await(slowAnswers);
        }
        return OutboundGuard.Resolver.table(dns).resolve(host);
      };
  private final SecretBox box = new SecretBox(SecretBox.newKey());
  private DocumentStore store;
  private MongoClient client;
  private MongoTemplate mongo;
  private WebhookReceiver receiver;
  private Dispatcher dispatcher;

  @BeforeEach
  void start() throws Exception {
    store = DocumentStore.inMemory();
    client = MongoClients.create(store.uri("trainyard"));
    mongo = new MongoTemplate(client, "trainyard");
    receiver = new WebhookReceiver();
  }

  @AfterEach
  void stop() {
    slowAnswers.countDown();
    if (dispatcher != null) {
      dispatcher.close();
    }
    receiver.close();
    client.close();
    store.close();
  }

  /** What the name answers at delivery, and what the attempt must say. */
  record Rebinding(String name, boolean allowLoopback, List<String> atDelivery, String refusal) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Rebinding> rebindings() {
    // the loopback receiver is the first answer: a guard that checked less would reach it
    return Stream.of(
        new Rebinding(
            "a private address behind a loopback one",
            true,
            List.of("127.0.0.1", "10.0.0.1"),
            "resolves to a private address (10.0.0.1)"),
        new Rebinding(
            "the metadata address, IPv4-mapped",
            true,
            List.of("127.0.0.1", "::ffff:a9fe:a9fe"),
            "resolves to a link-local or metadata address (169.254.169.254)"),
        new Rebinding(
            "loopback where loopback is not allowed",
            false,
            List.of("127.0.0.1"),
            "resolves to a loopback address (127.0.0.1)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rebindings")
  void aNameThatRebindsAfterCreationIsRefusedBeforeAnyConnection(Rebinding row) {
    OutboundGuard guard = guard(row.allowLoopback());
    String url = "http://" + HOST + ":" + receiver.port() + "/hook";
    dns.put(HOST, List.of(PUBLIC));
    assertThat(guard.problem(url)).as("the check at creation").isEmpty();
    String id = subscribe(url);
    dns.put(HOST, row.atDelivery());

    WebhookDelivery.Attempt attempt = firstAttempt(guard, id);

    assertThat(attempt.statusCode()).isZero();
    assertThat(attempt.error())
        .startsWith("refused: url host " + HOST + " ")
        .contains(row.refusal());
    assertThat(receiver.received()).isEmpty();
    assertThat(delivery(id).getString("status")).isEqualTo(WebhookDelivery.PENDING);
  }

  @Test
  void theConnectionGoesToTheCheckedAddressUnderTheUrlsName() {
    OutboundGuard guard = guard(true);
    dns.put(HOST, List.of("127.0.0.1"));
    String id = subscribe("http://" + HOST + ":" + receiver.port() + "/hook");

    WebhookDelivery.Attempt attempt = firstAttempt(guard, id);

    // .test names exist nowhere: only the test's answer can have led the connection here
    assertThat(attempt.statusCode()).isEqualTo(200);
    assertThat(receiver.received()).singleElement();
    assertThat(receiver.received().get(0).header("host")).isEqualTo(HOST + ":" + receiver.port());
    // one lookup, checked and connected to, on a thread kept for lookups
    assertThat(lookedUpOn).singleElement().asString().startsWith("trainyard-webhook-dns-");
  }

  @Test
  void aNameThatDoesNotAnswerHoldsUpNoOtherDelivery() {
    OutboundGuard guard = guard(true);
    dns.put(HOST, List.of("127.0.0.1"));
    // more than the dispatcher has delivery threads: lookups on them would stall everything
    List<String> slow =
        Stream.generate(() -> subscribe("http://" + SLOW + ":" + receiver.port() + "/hook"))
            .limit(8)
            .toList();
    String fast = subscribe("http://" + HOST + ":" + receiver.port() + "/hook");

    WebhookDelivery.Attempt attempt = firstAttempt(guard, fast);

    assertThat(attempt.statusCode()).isEqualTo(200);
    assertThat(slow).allSatisfy(id -> assertThat(attempts(id)).isEmpty());
  }

  @Test
  void tlsNamesTheUrlsHostWhileConnectingToTheCheckedAddress() throws Exception {
    OutboundGuard guard = guard(true);
    dns.put(HOST, List.of("127.0.0.1"));
    try (ServerSocket tls = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CompletableFuture<String> clientHello = CompletableFuture.supplyAsync(() -> firstBytes(tls));
      String id = subscribe("https://" + HOST + ":" + tls.getLocalPort() + "/hook");

      firstAttempt(guard, id);

      // the server name travels in clear in the ClientHello
      assertThat(clientHello.get()).contains(HOST);
    }
  }

  @Test
  void aRedirectIsAFailedAttemptAndIsNotFollowed() throws Exception {
    OutboundGuard guard = guard(true);
    try (WebhookReceiver elsewhere = new WebhookReceiver()) {
      receiver.answer(n -> 302);
      receiver.location(elsewhere.url());
      String id = subscribe(receiver.url());

      WebhookDelivery.Attempt attempt = firstAttempt(guard, id);

      assertThat(attempt.statusCode()).isEqualTo(302);
      assertThat(attempt.error()).isEqualTo("HTTP 302");
      assertThat(delivery(id).getString("status")).isEqualTo(WebhookDelivery.PENDING);
      assertThat(receiver.received()).hasSize(1);
      assertThat(elsewhere.received()).isEmpty();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private OutboundGuard guard(boolean allowLoopback) {
    return new OutboundGuard(
        OutboundGuard.Policy.webhooks(true, allowLoopback, List.of()), resolver);
  }

  /** An endpoint as the gateway stores it, and one delivery due to it now; the delivery's id. */
  private String subscribe(String url) {
    Instant now = Instant.now();
    String endpointId = "ep_" + UUID.randomUUID().toString().replace("-", "");
    WebhookEndpoint endpoint =
        new WebhookEndpoint(
            endpointId,
            "acme",
            url,
            null,
            null,
            List.of(
                new EndpointSecret(
                    box.seal(SecretBox.newSecret(), EndpointSecret.place(endpointId)), now, null)),
            now,
            false,
            null,
            null,
            null,
            null);
    mongo
        .getCollection(Collections.WEBHOOK_ENDPOINTS)
        .insertOne(new Document(Json.mapper().convertValue(endpoint, Map.class)));
    String id = "msg_" + UUID.randomUUID().toString().replace("-", "");
    new DeliveryStore(mongo)
        .enqueue(
            List.of(
                new WebhookDelivery(
                    id,
                    endpoint.id(),
                    "acme",
                    "evt_1",
                    "pull_request.submitted",
                    SUBMITTED,
                    now,
                    WebhookDelivery.PENDING,
                    List.of(),
                    now,
                    null,
                    null,
                    null)));
    return id;
  }

  /** Runs a dispatcher with {@code guard} until the delivery has its first attempt. */
  private WebhookDelivery.Attempt firstAttempt(OutboundGuard guard, String id) {
    dispatcher =
        new Dispatcher(
            new DeliveryStore(mongo),
            new EndpointStore(mongo),
            box,
            guard,
            InstantSource.system(),
            new Dispatcher.Settings(
                RetrySchedule.parse("1h"),
                Duration.ofSeconds(5),
                8,
                Duration.ofDays(5),
                Duration.ofMinutes(1)),
            DeliveryTelemetry.off());
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              dispatcher.poll();
              return !attempts(id).isEmpty();
            });
    return Json.mapper().convertValue(attempts(id).get(0), WebhookDelivery.Attempt.class);
  }

  private List<Document> attempts(String id) {
    return delivery(id).getList("attempts", Document.class);
  }

  private Document delivery(String id) {
    return mongo.getCollection(Collections.WEBHOOK_DELIVERIES).find(Filters.eq("_id", id)).first();
  }

  /** The first TLS record a client sends to {@code server}: its ClientHello. */
  private static String firstBytes(ServerSocket server) {
    try (Socket socket = server.accept()) {
      socket.setSoTimeout(10_000);
      DataInputStream in = new DataInputStream(socket.getInputStream());
      byte[] header = new byte[5]; // content type, version, length
      in.readFully(header);
      byte[] record = new byte[((header[3] & 0xff) << 8) | (header[4] & 0xff)];
      in.readFully(record);
      return new String(record, StandardCharsets.ISO_8859_1);
    } catch (Exception e) {
      throw new IllegalStateException("no TLS client arrived", e);
    }
  }
}
