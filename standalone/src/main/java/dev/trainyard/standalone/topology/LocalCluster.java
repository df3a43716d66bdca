package dev.trainyard.standalone.topology;

import dev.trainyard.standalone.infra.KafkaBroker;
import dev.trainyard.standalone.topology.RenderedChart.Service;
import dev.trainyard.standalone.topology.RenderedChart.Workload;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.Uuid;

/**
 * {@code java -jar trainyard-standalone.jar cluster [folder]}, run in a built checkout: renders
 * {@code helm/trainyard} with {@code ci/topology-values.yaml}, starts a broker and a store as
 * processes of their own, runs the chart's topic Job, then every replica of every rendered
 * Deployment from its service's jar, with the Deployment's arguments and environment (ports and the
 * Services' names mapped to free local ports, emptyDir mounts to folders). Prints {@code BASE=},
 * {@code TOKEN=}, {@code ADMIN=} and {@code ORG=} once the gateway answers, one {@code PROCESS}
 * line per process, then {@code READY}; SIGTERM or Ctrl-C stops every process it started. Data,
 * rendered manifests and logs stay in the folder (default {@code data/local-cluster}).
 *
 * <p>Like Kubernetes' {@code restartPolicy: Always}, a process that exits on its own (killed,
 * crashed) is started again after a second, with the same command, environment and ports, and a new
 * {@code PROCESS} line names its new pid; the broker and the store too, on their data.
 *
 * <p>Lines on its standard input act as {@code kubectl} and {@code helm} would, each answered by
 * {@code DONE <line>} once done: {@code scale <deployment> 0} stops the Deployment's replicas
 * (SIGTERM, as a scale-down sends) and keeps them down; {@code scale <deployment> up} lets them
 * start again ({@code kafka} and {@code store} name the backends: an outage and its end); {@code
 * upgrade <key=value>} renders the chart again with one more value and, as {@code helm upgrade}
 * rolls the pods whose environment changed, restarts those replicas one at a time, each awaited
 * ready (the scaled-down ones come back with the release).
 *
 * <p>Settings: {@code TRAINYARD_HELM} (default {@code .ci/.tools/bin/helm}, then {@code helm} on
 * the path), {@code TRAINYARD_CHECKOUT} (default the working directory), {@code
 * TRAINYARD_CLUSTER_SET} (more chart values, {@code key=value} separated by {@code ;}).
 */
public final class LocalCluster {
  static final String RELEASE = "trainyard";

  /** How many Kafka nodes to run: 1 (default) or a KRaft cluster of that many. */
  static final String BROKERS = "TRAINYARD_CLUSTER_BROKERS";

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final Path checkout;
  private final Path folder;
  private final List<Running> running = new CopyOnWriteArrayList<>();
  private volatile boolean stopping;
  private final Set<String> heldDown = ConcurrentHashMap.newKeySet();
  private final List<String> values = new ArrayList<>();
  private final Map<String, Map<Integer, Integer>> replicaPorts = new ConcurrentHashMap<>();
  private Map<String, String> addresses = Map.of();

  /** One started process, where it answers, and how to start it again. */
  record Running(
      String name,
      Process process,
      Integer apiPort,
      int managementPort,
      Path log,
      ProcessBuilder builder) {

    Running again() throws IOException {
      return new Running(name, builder.start(), apiPort, managementPort, log, builder);
    }

    String line() {
      return "PROCESS name="
          + name
          + " pid="
          + process.pid()
          + " management="
          + managementPort
          + (apiPort == null ? "" : " api=" + apiPort)
          + " log="
          + log;
    }
  }

  private LocalCluster(Path checkout, Path folder) {
    this.checkout = checkout;
    this.folder = folder;
  }

  public static void main(String[] args) throws Exception {
    Path checkout =
        Path.of(System.getenv().getOrDefault("TRAINYARD_CHECKOUT", "."))
            .toAbsolutePath()
            .normalize();
    Path folder =
        (args.length > 0 ? Path.of(args[0]) : checkout.resolve("data/local-cluster"))
            .toAbsolutePath()
            .normalize();
    LocalCluster cluster = new LocalCluster(checkout, folder);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  cluster.stopAll();
                  stopped.countDown();
                },
                "local-cluster-stop"));
    try {
      cluster.start();
    } catch (Exception e) {
      System.err.println("local cluster: " + e.getMessage());
      System.exit(1);
    }
    Thread control = new Thread(cluster::obeyInput, "local-cluster-control");
    control.setDaemon(true);
    control.start();
    cluster.restartWhatExits(stopped);
  }

  /** Reads control lines from standard input until it ends (see the class comment). */
  private void obeyInput() {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try {
      String line;
      while ((line = in.readLine()) != null) {
        String[] words = line.strip().split("\\s+");
        try {
          if (words.length == 3 && words[0].equals("scale")) {
            scale(words[1], !words[2].equals("0"));
          } else if (words.length == 2 && words[0].equals("upgrade")) {
            upgrade(words[1]);
          } else if (!line.isBlank()) {
            System.err.println("local cluster: unknown command: " + line);
            continue;
          }
          System.out.println("DONE " + line.strip());
        } catch (Exception e) {
          System.err.println("local cluster: " + line + " failed: " + e);
          System.out.println("FAILED " + line.strip());
        }
      }
    } catch (IOException e) {
      // standard input closed: no more commands
    }
  }

  private List<Running> replicas(String deployment) {
    return running.stream()
        .filter(r -> r.name().equals(deployment) || r.name().startsWith(deployment + "-"))
        .toList();
  }

  private void scale(String deployment, boolean up) throws InterruptedException {
    List<Running> replicas = replicas(deployment);
    if (replicas.isEmpty()) {
      throw new IllegalArgumentException("no Deployment " + deployment);
    }
    for (Running replica : replicas) {
      if (up) {
        heldDown.remove(replica.name()); // started again by restartWhatExits
      } else {
        heldDown.add(replica.name());
        replica.process().destroy();
      }
    }
    for (Running replica : replicas) {
      if (!up && !replica.process().waitFor(90, TimeUnit.SECONDS)) {
        replica.process().destroyForcibly();
      }
    }
  }

  /** Renders again with {@code value} and rolls each replica whose environment changed. */
  private void upgrade(String value) throws Exception {
    values.add(value);
    RenderedChart chart = render(values.toArray(String[]::new));
    for (Workload deployment : chart.workloads("Deployment")) {
      for (int i = 0; i < deployment.replicas(); i++) {
        String name = deployment.name() + "-" + i;
        Running current =
            running.stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
        Map<String, String> env =
            localEnvironment(deployment, name, replicaPorts.get(name), addresses);
        Map<String, String> was = current.builder().environment();
        boolean changed =
            env.entrySet().stream().anyMatch(e -> !e.getValue().equals(was.get(e.getKey())));
        if (!changed && !heldDown.contains(name)) {
          continue;
        }
        was.putAll(env);
        heldDown.remove(name);
        current.process().destroy();
        if (!current.process().waitFor(90, TimeUnit.SECONDS)) {
          current.process().destroyForcibly();
        }
        Instant deadline = Instant.now().plusSeconds(30);
        Running again = current;
        while (again.process() == current.process() && Instant.now().isBefore(deadline)) {
          Thread.sleep(200);
          again = running.stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
        }
        awaitReady(again);
      }
    }
  }

  /** Until stopped: starts again, after a second, every process that exited on its own. */
  private void restartWhatExits(CountDownLatch stopped) throws InterruptedException {
    while (!stopped.await(200, TimeUnit.MILLISECONDS)) {
      for (Running process : running) {
        if (process.process().isAlive() || stopping || heldDown.contains(process.name())) {
          continue;
        }
        Thread.sleep(1_000);
        if (stopping) {
          return;
        }
        try {
          Running again = process.again();
          running.set(running.indexOf(process), again);
          System.out.println("RESTARTED " + again.line().substring("PROCESS ".length()));
        } catch (IOException e) {
          System.err.println("local cluster: could not restart " + process.name() + ": " + e);
        }
      }
    }
  }

  private void start() throws Exception {
    Files.createDirectories(folder.resolve("logs"));
    System.out.println("FOLDER=" + folder);
    String bootstrap = brokers(Integer.parseInt(System.getenv().getOrDefault(BROKERS, "1")));
    int storePort = Backend.freePort();
    backend(
        "store",
        storePort,
        List.of(folder.resolve("store").toString(), Integer.toString(storePort)));
    Path gitRoot = Files.createDirectories(folder.resolve("git"));
    values.addAll(
        List.of(
            // helm --set separates values with commas: escape those of the server list
            "externalKafka.bootstrapServers=" + bootstrap.replace(",", "\\,"),
            "externalMongodb.uri=mongodb://127.0.0.1:" + storePort + "/trainyard",
            "queueWorker.gitRoot.path=" + gitRoot));
    for (String value : System.getenv().getOrDefault("TRAINYARD_CLUSTER_SET", "").split(";")) {
      if (!value.isBlank()) {
        values.add(value.strip());
      }
    }
    RenderedChart chart = render(values.toArray(String[]::new));
    for (Workload job : chart.workloads("Job")) {
      runToCompletion(job);
    }
    List<Workload> deployments = chart.workloads("Deployment");
    Map<String, Map<Integer, Integer>> localPorts = new LinkedHashMap<>();
    for (Workload deployment : deployments) {
      Map<Integer, Integer> ports = new LinkedHashMap<>();
      for (int port : deployment.containerPorts().values()) {
        ports.put(port, Backend.freePort());
      }
      localPorts.put(deployment.name(), ports);
    }
    addresses = addresses(chart.services(), deployments, localPorts);
    Running gateway = null;
    Map<String, String> gatewayEnv = Map.of();
    // the gateway last: it is the door, and it answers once the rest is there
    List<Workload> ordered = new ArrayList<>(deployments);
    ordered.sort((a, b) -> Boolean.compare(isGateway(a), isGateway(b)));
    for (Workload deployment : ordered) {
      for (int replica = 0; replica < deployment.replicas(); replica++) {
        String name = deployment.name() + "-" + replica;
        Map<Integer, Integer> ports =
            replica == 0 ? localPorts.get(deployment.name()) : freshPorts(deployment);
        Map<String, String> env = localEnvironment(deployment, name, ports, addresses);
        replicaPorts.put(name, ports);
        Running process = launch(name, deployment, env, ports);
        if (isGateway(deployment)) {
          gateway = process;
          gatewayEnv = env;
        }
      }
    }
    for (Running process : running) {
      awaitReady(process);
    }
    if (gateway == null) {
      throw new IllegalStateException("the rendered chart has no gateway Deployment");
    }
    for (Running process : running) {
      System.out.println(process.line());
    }
    System.out.println("GIT_ROOT=" + gitRoot);
    System.out.println("BASE=http://127.0.0.1:" + gateway.apiPort() + "/v1");
    System.out.println("TOKEN=" + gatewayEnv.get("TRAINYARD_BOOTSTRAP_TOKEN"));
    System.out.println("ADMIN=" + gatewayEnv.get("TRAINYARD_ADMIN_TOKEN"));
    System.out.println("ORG=" + gatewayEnv.getOrDefault("TRAINYARD_BOOTSTRAP_ORG", "default"));
    System.out.println("READY");
  }

  private static boolean isGateway(Workload workload) {
    return workload.module().equals("gateway");
  }

  private Map<Integer, Integer> freshPorts(Workload deployment) throws IOException {
    Map<Integer, Integer> ports = new LinkedHashMap<>();
    for (int port : deployment.containerPorts().values()) {
      ports.put(port, Backend.freePort());
    }
    return ports;
  }

  private RenderedChart render(String... values) throws Exception {
    Path chart = checkout.resolve("helm/trainyard");
    List<String> command = new ArrayList<>();
    command.add(helm().toString());
    command.addAll(
        List.of(
            "template",
            RELEASE,
            chart.toString(),
            "-f",
            chart.resolve("ci/topology-values.yaml").toString()));
    for (String value : values) {
      command.add("--set");
      command.add(value);
    }
    Path rendered = folder.resolve("rendered.yaml");
    Process helm =
        new ProcessBuilder(command)
            .redirectOutput(rendered.toFile())
            .redirectError(folder.resolve("logs/helm.log").toFile())
            .start();
    if (!helm.waitFor(60, TimeUnit.SECONDS) || helm.exitValue() != 0) {
      throw new IllegalStateException(
          "helm template failed: " + Files.readString(folder.resolve("logs/helm.log")));
    }
    return new RenderedChart(Files.readString(rendered));
  }

  private Path helm() {
    String given = System.getenv("TRAINYARD_HELM");
    if (given != null && !given.isBlank()) {
      return Path.of(given);
    }
    Path installed = checkout.resolve(".ci/.tools/bin/helm");
    return Files.isExecutable(installed) ? installed : Path.of("helm");
  }

  /**
   * Every way a pod reaches a Service ({@code name:port}, {@code name.namespace…:port}) mapped to
   * the local address of the first replica behind it.
   */
  private static Map<String, String> addresses(
      List<Service> services,
      List<Workload> deployments,
      Map<String, Map<Integer, Integer>> localPorts) {
    Map<String, String> addresses = new LinkedHashMap<>();
    for (Service service : services) {
      for (Workload deployment : deployments) {
        if (!deployment.labels().entrySet().containsAll(service.selector().entrySet())) {
          continue;
        }
        service
            .ports()
            .forEach(
                (port, target) -> {
                  Integer containerPort =
                      target instanceof Number n
                          ? Integer.valueOf(n.intValue())
                          : deployment.containerPorts().get(String.valueOf(target));
                  Integer local = localPorts.get(deployment.name()).get(containerPort);
                  if (local != null) {
                    addresses.put(service.name() + ":" + port, "127.0.0.1:" + local);
                    addresses.put(service.name() + ".svc:" + port, "127.0.0.1:" + local);
                  }
                });
      }
    }
    return addresses;
  }

  private Map<String, String> localEnvironment(
      Workload deployment, String name, Map<Integer, Integer> ports, Map<String, String> addresses)
      throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    for (Map.Entry<String, String> variable : deployment.env().entrySet()) {
      String value = variable.getValue();
      if (variable.getKey().endsWith("_PORT")
          && value.matches("\\d+")
          && ports.containsKey(Integer.parseInt(value))) {
        value = Integer.toString(ports.get(Integer.parseInt(value)));
      }
      for (Map.Entry<String, String> address : addresses.entrySet()) {
        value = value.replaceAll(serviceHost(address.getKey()), address.getValue());
      }
      for (Map.Entry<String, String> mount : deployment.emptyDirMounts().entrySet()) {
        // /tmp is the JVM's (java.io.tmpdir below); host paths given to helm may start with it
        boolean inMount = value.equals(mount.getKey()) || value.startsWith(mount.getKey() + "/");
        if (inMount && !mount.getKey().equals("/tmp")) {
          Path local = Files.createDirectories(folder.resolve(name).resolve(mount.getValue()));
          value = local + value.substring(mount.getKey().length());
        }
      }
      env.put(variable.getKey(), value);
    }
    return env;
  }

  /** {@code name:port} also as {@code name.namespace.svc.cluster.local:port} and shorter. */
  private static String serviceHost(String nameAndPort) {
    String name = nameAndPort.substring(0, nameAndPort.indexOf(':')).replace(".svc", "");
    String port = nameAndPort.substring(nameAndPort.indexOf(':') + 1);
    return "\\b" + java.util.regex.Pattern.quote(name) + "(\\.[a-z0-9.-]+)?:" + port + "\\b";
  }

  private Running launch(
      String name, Workload workload, Map<String, String> env, Map<Integer, Integer> ports)
      throws IOException {
    Path log = folder.resolve("logs/" + name + ".log");
    Path tmp = Files.createDirectories(folder.resolve(name).resolve("tmp"));
    List<String> command = new ArrayList<>();
    command.add(java());
    command.add("-Xmx" + heapMegabytes(workload.memoryLimit()) + "m");
    command.add("-XX:+ExitOnOutOfMemoryError");
    command.add("-Djava.io.tmpdir=" + tmp);
    command.add("-jar");
    command.add(jar(workload.module()).toString());
    command.addAll(workload.args());
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder
        .environment()
        .keySet()
        .removeIf(
            k -> k.startsWith("TRAINYARD_") || k.startsWith("SPRING_") || k.startsWith("SERVER_"));
    builder.environment().putAll(env);
    Process process = builder.start();
    Integer api = env.get("SERVER_PORT") == null ? null : Integer.valueOf(env.get("SERVER_PORT"));
    int management = Integer.parseInt(env.getOrDefault("TRAINYARD_MANAGEMENT_PORT", "-1"));
    if (management < 0) {
      management = ports.values().stream().filter(p -> !p.equals(api)).findFirst().orElseThrow();
    }
    Running running = new Running(name, process, api, management, log, builder);
    if (workload.kind().equals("Deployment")) {
      this.running.add(running);
    }
    return running;
  }

  private void runToCompletion(Workload job) throws Exception {
    Running process = launch(job.name(), job, job.env(), Map.of(0, 0));
    if (!process.process().waitFor(3, TimeUnit.MINUTES) || process.process().exitValue() != 0) {
      process.process().destroyForcibly();
      throw new IllegalStateException(
          "the Job " + job.name() + " failed; its log: " + process.log());
    }
  }

  /**
   * Starts the brokers: one (a cluster of its own, as before), or {@code count} KRaft nodes, each a
   * broker and a controller in a process of its own ({@code kafka-1} …), one cluster id for all.
   *
   * @return the bootstrap servers
   */
  private String brokers(int count) throws Exception {
    if (count == 1) {
      int port = Backend.freePort();
      backend("kafka", port, List.of(folder.resolve("kafka").toString(), Integer.toString(port)));
      return "127.0.0.1:" + port;
    }
    List<KafkaBroker.Node> quorum = new ArrayList<>();
    for (int id = 1; id <= count; id++) {
      quorum.add(new KafkaBroker.Node(id, Backend.freePort(), Backend.freePort()));
    }
    String nodes = quorum.stream().map(KafkaBroker.Node::toString).collect(Collectors.joining(","));
    String clusterId = Uuid.randomUuid().toString();
    List<Thread> starting = new ArrayList<>();
    List<Exception> failed = new CopyOnWriteArrayList<>();
    for (KafkaBroker.Node node : quorum) {
      // together: a node waits for a quorum of voters before it is ready
      Thread start =
          new Thread(
              () -> {
                try {
                  backend(
                      "kafka-" + node.id(),
                      node.port(),
                      List.of(
                          folder.resolve("kafka-" + node.id()).toString(),
                          Integer.toString(node.id()),
                          nodes,
                          clusterId));
                } catch (Exception e) {
                  failed.add(e);
                }
              });
      start.start();
      starting.add(start);
    }
    for (Thread start : starting) {
      start.join();
    }
    if (!failed.isEmpty()) {
      throw failed.get(0);
    }
    return quorum.stream().map(n -> "127.0.0.1:" + n.port()).collect(Collectors.joining(","));
  }

  /** A backend process ({@code kafka} or {@code store} and its arguments), awaited until ready. */
  private void backend(String name, int port, List<String> arguments) throws Exception {
    String kind = name.startsWith("kafka") ? "kafka" : name;
    Path log = folder.resolve("logs/" + name + ".log");
    List<String> command =
        new ArrayList<>(List.of(java(), "-Xmx512m", "-jar", standaloneJar().toString(), kind));
    command.addAll(arguments);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    long before = Files.exists(log) ? Files.size(log) : 0; // a folder used before keeps its logs
    Process process = builder.start();
    running.add(new Running(name, process, port, -1, log, builder));
    Instant deadline = Instant.now().plusSeconds(90);
    while (!Files.readString(log).substring((int) before).contains("READY " + kind)) {
      if (!process.isAlive() || Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(kind + " did not start; its log: " + log);
      }
      Thread.sleep(200);
    }
  }

  private void awaitReady(Running process) throws Exception {
    if (process.managementPort() < 0) {
      return;
    }
    Instant deadline = Instant.now().plusSeconds(180);
    while (readiness(process.managementPort()) != 200) {
      if (!process.process().isAlive() || Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(
            process.name() + " did not get ready; its log: " + process.log());
      }
      Thread.sleep(500);
    }
  }

  private static int readiness(int port) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness"))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** Services first (each finishes its work), then the store and the broker they used. */
  private void stopAll() {
    stopping = true;
    List<Running> services = running.stream().filter(r -> r.managementPort() >= 0).toList();
    List<Running> backends = running.stream().filter(r -> r.managementPort() < 0).toList();
    stop(services);
    stop(backends);
  }

  private static void stop(List<Running> processes) {
    processes.forEach(r -> r.process().destroy());
    for (Running r : processes) {
      try {
        if (!r.process().waitFor(40, TimeUnit.SECONDS)) {
          r.process().destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        r.process().destroyForcibly();
      }
    }
  }

  static int heapMegabytes(String memoryLimit) {
    if (memoryLimit == null) {
      return 512;
    }
    long bytes = Quantity.bytes(memoryLimit);
    // what -XX:MaxRAMPercentage=75 gives the container's JVM in the image
    return (int) Math.max(128, bytes * 3 / 4 / (1024 * 1024));
  }

  private static String java() {
    return ProcessHandle.current().info().command().orElse("java");
  }

  private Path jar(String module) throws IOException {
    return only(checkout.resolve(module).resolve("target"), "-exec.jar");
  }

  private Path standaloneJar() throws IOException {
    return only(checkout.resolve("standalone/target"), ".jar", "trainyard-standalone-");
  }

  private static Path only(Path folder, String suffix, String... prefix) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(suffix))
          .filter(p -> prefix.length == 0 || p.getFileName().toString().startsWith(prefix[0]))
          .filter(p -> !p.getFileName().toString().endsWith("-sources.jar"))
          .findFirst()
          .orElseThrow(
              () ->
                  new IllegalStateException("no *" + suffix + " in " + folder + " (build first)"));
    }
  }

  /** Kubernetes resource quantities of memory: {@code 768Mi}, {@code 1Gi}, {@code 500M}. */
  static final class Quantity {
    private Quantity() {}

    static long bytes(String quantity) {
      String[][] units = {
        {"Ki", "1024"}, {"Mi", "1048576"}, {"Gi", "1073741824"},
        {"k", "1000"}, {"M", "1000000"}, {"G", "1000000000"}
      };
      for (String[] unit : units) {
        if (quantity.endsWith(unit[0])) {
          return Long.parseLong(quantity.substring(0, quantity.length() - unit[0].length()))
              * Long.parseLong(unit[1]);
        }
      }
      return Long.parseLong(quantity);
    }
  }
}
