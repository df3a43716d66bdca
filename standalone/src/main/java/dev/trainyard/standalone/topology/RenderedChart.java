package dev.trainyard.standalone.topology;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The output of {@code helm template}, read as Kubernetes would read it for what a process needs:
 * each Deployment's and Job's container (image, arguments, environment with every {@code valueFrom}
 * and {@code envFrom} resolved against the rendered ConfigMaps and Secrets, emptyDir mounts, memory
 * limit), and each Service's ports.
 */
final class RenderedChart {
  /** A Deployment's or Job's first container as a process needs it. */
  record Workload(
      String kind,
      String name,
      int replicas,
      String image,
      List<String> args,
      Map<String, String> env,
      Map<String, String> emptyDirMounts,
      Map<String, Integer> containerPorts,
      Map<String, String> labels,
      String memoryLimit) {

    /** The service module the image is built from: the image name's last path segment. */
    String module() {
      String path = image.split("@")[0];
      String last = path.substring(path.lastIndexOf('/') + 1);
      return last.contains(":") ? last.substring(0, last.indexOf(':')) : last;
    }
  }

  /** A Service: its name, the pod labels it selects, and service port → target port. */
  record Service(String name, Map<String, String> selector, Map<Integer, Object> ports) {}

  private final List<Map<String, Object>> documents = new ArrayList<>();

  RenderedChart(String manifests) {
    Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
    for (Object document : yaml.loadAll(manifests)) {
      if (document instanceof Map<?, ?> map) {
        documents.add(cast(map));
      }
    }
  }

  List<Workload> workloads(String kind) {
    List<Workload> workloads = new ArrayList<>();
    for (Map<String, Object> document : of(kind)) {
      Map<String, Object> spec = map(document, "spec");
      Map<String, Object> template = map(spec, "template");
      Map<String, Object> pod = map(template, "spec");
      List<Map<String, Object>> containers = list(pod, "containers");
      Map<String, Object> container = containers.get(0);
      Map<String, String> emptyDirs = new LinkedHashMap<>();
      for (Map<String, Object> volume : list(pod, "volumes")) {
        if (volume.containsKey("emptyDir")) {
          for (Map<String, Object> mount : list(container, "volumeMounts")) {
            if (volume.get("name").equals(mount.get("name"))) {
              emptyDirs.put((String) mount.get("mountPath"), (String) volume.get("name"));
            }
          }
        }
      }
      Map<String, Integer> ports = new LinkedHashMap<>();
      for (Map<String, Object> port : list(container, "ports")) {
        ports.put(
            String.valueOf(port.getOrDefault("name", port.get("containerPort"))),
            ((Number) port.get("containerPort")).intValue());
      }
      Map<String, Object> limits = map(map(container, "resources"), "limits");
      workloads.add(
          new Workload(
              kind,
              (String) map(document, "metadata").get("name"),
              spec.get("replicas") instanceof Number n ? n.intValue() : 1,
              (String) container.get("image"),
              strings(container.get("args")),
              environment(container),
              emptyDirs,
              ports,
              strings(map(map(template, "metadata"), "labels")),
              limits.get("memory") == null ? null : limits.get("memory").toString()));
    }
    return workloads;
  }

  List<Service> services() {
    List<Service> services = new ArrayList<>();
    for (Map<String, Object> document : of("Service")) {
      Map<String, Object> spec = map(document, "spec");
      Map<Integer, Object> ports = new LinkedHashMap<>();
      for (Map<String, Object> port : list(spec, "ports")) {
        ports.put(
            ((Number) port.get("port")).intValue(),
            port.getOrDefault("targetPort", port.get("port")));
      }
      services.add(
          new Service(
              (String) map(document, "metadata").get("name"),
              strings(map(spec, "selector")),
              ports));
    }
    return services;
  }

  private Map<String, String> environment(Map<String, Object> container) {
    Map<String, String> env = new LinkedHashMap<>();
    for (Map<String, Object> source : list(container, "envFrom")) {
      String prefix = (String) source.getOrDefault("prefix", "");
      Map<String, String> values =
          source.containsKey("configMapRef")
              ? data("ConfigMap", (String) map(source, "configMapRef").get("name"))
              : data("Secret", (String) map(source, "secretRef").get("name"));
      values.forEach((key, value) -> env.put(prefix + key, value));
    }
    for (Map<String, Object> variable : list(container, "env")) {
      String name = (String) variable.get("name");
      if (variable.containsKey("value")) {
        env.put(name, String.valueOf(variable.get("value")));
        continue;
      }
      Map<String, Object> from = map(variable, "valueFrom");
      String kind = from.containsKey("secretKeyRef") ? "Secret" : "ConfigMap";
      Map<String, Object> ref =
          map(from, kind.equals("Secret") ? "secretKeyRef" : "configMapKeyRef");
      String value = data(kind, (String) ref.get("name")).get((String) ref.get("key"));
      if (value == null && !Boolean.TRUE.equals(ref.get("optional"))) {
        throw new IllegalStateException(
            name
                + " refers to "
                + kind
                + " "
                + ref.get("name")
                + " key "
                + ref.get("key")
                + ", which the rendered chart does not hold (an existingSecret?); the local"
                + " topology needs values that render every secret");
      }
      if (value != null) {
        env.put(name, value);
      }
    }
    return env;
  }

  private Map<String, String> data(String kind, String name) {
    for (Map<String, Object> document : of(kind)) {
      if (name.equals(map(document, "metadata").get("name"))) {
        Map<String, String> values = new LinkedHashMap<>();
        strings(map(document, "data"))
            .forEach(
                (key, value) ->
                    values.put(
                        key,
                        kind.equals("Secret")
                            ? new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)
                            : value));
        values.putAll(strings(map(document, "stringData")));
        return values;
      }
    }
    throw new IllegalStateException("the rendered chart has no " + kind + " named " + name);
  }

  private List<Map<String, Object>> of(String kind) {
    return documents.stream().filter(d -> kind.equals(d.get("kind"))).toList();
  }

  private static Map<String, Object> map(Map<String, Object> parent, String key) {
    return parent.get(key) instanceof Map<?, ?> map ? cast(map) : Map.of();
  }

  private static List<Map<String, Object>> list(Map<String, Object> parent, String key) {
    List<Map<String, Object>> items = new ArrayList<>();
    if (parent.get(key) instanceof List<?> list) {
      list.forEach(item -> items.add(cast((Map<?, ?>) item)));
    }
    return items;
  }

  private static List<String> strings(Object list) {
    List<String> strings = new ArrayList<>();
    if (list instanceof List<?> items) {
      items.forEach(item -> strings.add(String.valueOf(item)));
    }
    return strings;
  }

  private static Map<String, String> strings(Map<String, Object> map) {
    Map<String, String> strings = new LinkedHashMap<>();
    map.forEach((key, value) -> strings.put(key, value == null ? "" : String.valueOf(value)));
    return strings;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Map<?, ?> map) {
    return (Map<String, Object>) map;
  }
}
