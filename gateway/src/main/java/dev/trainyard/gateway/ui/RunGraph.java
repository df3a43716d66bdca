package dev.trainyard.gateway.ui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lays out a queue's live test runs as the queue page draws them: each run stacked on the runs it
 * was built on ({@code waitingOn}), the lanes side by side. A lane is a set of runs connected by
 * what they wait on (one in single mode; one per disjoint set of impacted targets in parallel
 * mode); bisection runs form lanes of their own. Within a lane a run's level is one above the
 * highest run it waits on, so a speculative chain reads bottom-up from the target branch.
 */
public final class RunGraph {
  public static final int COLUMN_WIDTH = 230;
  public static final int ROW_HEIGHT = 92;
  public static final int BOX_WIDTH = 210;
  public static final int BOX_HEIGHT = 74;
  private static final int BASE = 36;

  /** A run to lay out, oldest first. */
  public record Run(String id, boolean bisection, List<String> waitingOn) {}

  /** Where a run is drawn: its lane (column) and level (row, 0 on the target branch). */
  public record Place(String id, int lane, int level, int x, int y) {}

  /** A line from a run down to one it waits on. */
  public record Edge(int x1, int y1, int x2, int y2) {}

  /** The layout: the runs' places in input order, the edges, and the drawing's size. */
  public record Layout(List<Place> places, List<Edge> edges, int width, int height, int lanes) {
    public Place place(String id) {
      return places.stream().filter(p -> p.id().equals(id)).findFirst().orElseThrow();
    }
  }

  private RunGraph() {}

  public static Layout layout(List<Run> runs) {
    Map<String, Run> byId = new LinkedHashMap<>();
    runs.forEach(r -> byId.put(r.id(), r));
    Map<String, String> parent = new HashMap<>();
    byId.keySet().forEach(id -> parent.put(id, id));
    for (Run r : runs) {
      for (String below : r.waitingOn()) {
        Run other = byId.get(below);
        if (other != null && other.bisection() == r.bisection()) {
          union(parent, r.id(), below);
        }
      }
    }
    Map<String, Integer> laneOfRoot = new LinkedHashMap<>();
    // main lanes first, then bisection lanes, each in the order of their oldest run
    runs.stream()
        .sorted(Comparator.comparing(Run::bisection))
        .forEach(r -> laneOfRoot.putIfAbsent(find(parent, r.id()), laneOfRoot.size()));
    Map<String, Integer> levels = new HashMap<>();
    runs.forEach(r -> level(r.id(), byId, levels, new java.util.HashSet<>()));
    int lanes = laneOfRoot.size();
    int maxLevel = levels.values().stream().mapToInt(Integer::intValue).max().orElse(-1);
    int height = BASE + (maxLevel + 1) * ROW_HEIGHT + 8;
    List<Place> places = new ArrayList<>();
    Map<String, Place> placed = new HashMap<>();
    for (Run r : runs) {
      int lane = laneOfRoot.get(find(parent, r.id()));
      int level = levels.get(r.id());
      Place p =
          new Place(
              r.id(),
              lane,
              level,
              8 + lane * COLUMN_WIDTH,
              height - BASE - (level + 1) * ROW_HEIGHT + (ROW_HEIGHT - BOX_HEIGHT));
      places.add(p);
      placed.put(r.id(), p);
    }
    List<Edge> edges = new ArrayList<>();
    for (Run r : runs) {
      Place from = placed.get(r.id());
      for (String below : r.waitingOn()) {
        Place to = placed.get(below);
        if (to != null) {
          edges.add(
              new Edge(
                  from.x() + BOX_WIDTH / 2, from.y() + BOX_HEIGHT, to.x() + BOX_WIDTH / 2, to.y()));
        }
      }
    }
    return new Layout(places, edges, Math.max(1, lanes) * COLUMN_WIDTH + 8, height, lanes);
  }

  /** One above the highest run it waits on that is drawn (a cycle, never written, is cut). */
  private static int level(
      String id, Map<String, Run> byId, Map<String, Integer> levels, java.util.Set<String> path) {
    Integer known = levels.get(id);
    if (known != null) {
      return known;
    }
    path.add(id);
    int level = 0;
    for (String below : byId.get(id).waitingOn()) {
      if (byId.containsKey(below) && !path.contains(below)) {
        level = Math.max(level, level(below, byId, levels, path) + 1);
      }
    }
    path.remove(id);
    levels.put(id, level);
    return level;
  }

  private static String find(Map<String, String> parent, String id) {
    String root = id;
    while (!parent.get(root).equals(root)) {
      root = parent.get(root);
    }
    parent.put(id, root);
    return root;
  }

  private static void union(Map<String, String> parent, String a, String b) {
    String ra = find(parent, a);
    String rb = find(parent, b);
    if (!ra.equals(rb)) {
      parent.put(rb, ra);
    }
  }
}
