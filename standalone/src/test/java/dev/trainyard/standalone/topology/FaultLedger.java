package dev.trainyard.standalone.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a chaos run's clients saw, told per fault of its schedule: a moment belongs to the fault
 * begun last before it, so each answer that was no answer (503 or no connection), each gap between
 * two answered reads and each wait for a command's 200 counts for the fault under which it began.
 */
final class FaultLedger {
  private record Fault(String name, long at) {}

  private static final class Figures {
    final AtomicInteger unavailable = new AtomicInteger();
    final AtomicLong longestReadGapMillis = new AtomicLong();
    final AtomicLong longestCommandWaitMillis = new AtomicLong();
  }

  private final List<Fault> faults =
      new CopyOnWriteArrayList<>(List.of(new Fault("before the faults", Long.MIN_VALUE)));
  private final Map<String, Figures> figures = new ConcurrentHashMap<>();

  /** The fault {@code name} begins now (the one before ends). */
  void begin(String name) {
    faults.add(new Fault(name, System.nanoTime()));
    System.out.println("chaos: " + name);
  }

  void unavailable(long at) {
    figures(at).unavailable.incrementAndGet();
  }

  /** No read was answered from {@code from} (the first unanswered) to {@code to}. */
  void readGap(long from, long to) {
    figures(from).longestReadGapMillis.accumulateAndGet(millis(from, to), Math::max);
  }

  /** A command first left unanswered at {@code from} was answered 200 at {@code to}. */
  void commandWait(long from, long to) {
    figures(from).longestCommandWaitMillis.accumulateAndGet(millis(from, to), Math::max);
  }

  int unavailable() {
    return figures.values().stream().mapToInt(f -> f.unavailable.get()).sum();
  }

  long longestReadGapMillis() {
    return figures.values().stream().mapToLong(f -> f.longestReadGapMillis.get()).max().orElse(0);
  }

  long longestCommandWaitMillis() {
    return figures.values().stream()
        .mapToLong(f -> f.longestCommandWaitMillis.get())
        .max()
        .orElse(0);
  }

  /** The fault names, in order. */
  List<String> names() {
    return faults.stream().map(Fault::name).toList();
  }

  /** One {@code FAULT} line per fault: its 503s and longest unavailability. */
  List<String> lines() {
    List<String> lines = new ArrayList<>();
    for (Fault fault : faults) {
      Figures f = figures.getOrDefault(fault.name(), new Figures());
      lines.add(
          String.format(
              "FAULT %s: 503s=%d longest-read-unavailability=%.1fs longest-command-wait=%.1fs",
              fault.name(),
              f.unavailable.get(),
              f.longestReadGapMillis.get() / 1000.0,
              f.longestCommandWaitMillis.get() / 1000.0));
    }
    return lines;
  }

  private Figures figures(long at) {
    String name = faults.get(0).name();
    for (Fault fault : faults.subList(1, faults.size())) {
      if (fault.at() - at <= 0) {
        name = fault.name();
      }
    }
    return figures.computeIfAbsent(name, n -> new Figures());
  }

  private static long millis(long from, long to) {
    return TimeUnit.NANOSECONDS.toMillis(to - from);
  }
}
