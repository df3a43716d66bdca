package dev.trainyard.worker.scm;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * Work for source hosts, each host on threads of its own (ADR 0046): a host that answers slowly —
 * GitHub refusing a landing for minutes, a remote behind a slow link — holds only its own threads,
 * never another host's work. Within a host, waiting work is taken group by group in turn (a queue's
 * effects, an organization's repositories), and on a host of three threads or more a group never
 * holds the last one: it is left for the others, so a hot queue does not starve the quiet ones
 * beside it.
 *
 * <p>Hosts are named by the repositories, which tenants type: beyond {@link #MAX_HOSTS} distinct
 * hosts, the rest share one lane. A lane's threads end after a minute without work.
 */
public final class HostLanes implements AutoCloseable {
  /** Distinct hosts that get a lane of their own; any further host shares {@link #OTHER}. */
  public static final int MAX_HOSTS = 64;

  /** The lane the hosts beyond {@link #MAX_HOSTS} share. */
  public static final String OTHER = "other";

  private final ToIntFunction<String> limits;
  private final Consumer<String> opened;
  private final ThreadPoolExecutor threads;
  private final Map<String, Lane> lanes = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * @param name the threads' name prefix
   * @param limits how many threads each host may use at once (at least 1)
   * @param opened told the name of each lane as it is made (a host, or {@link #OTHER})
   */
  public HostLanes(String name, ToIntFunction<String> limits, Consumer<String> opened) {
    this.limits = limits;
    this.opened = opened;
    AtomicInteger count = new AtomicInteger();
    this.threads =
        new ThreadPoolExecutor(
            0,
            Integer.MAX_VALUE, // bounded by the lanes: each runs at most its limit
            1,
            TimeUnit.MINUTES,
            new SynchronousQueue<>(),
            work -> {
              Thread t = new Thread(work, name + "-" + count.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * {@code perHost} threads for every host but those {@code hosts} names, as {@code
   * host=threads,host=threads} (say {@code github.com=8,git.example.com=1}).
   *
   * @throws IllegalArgumentException naming the part that is not {@code host=threads} with a
   *     positive count, or when {@code perHost} is not positive
   */
  public static ToIntFunction<String> limits(int perHost, String hosts) {
    if (perHost < 1) {
      throw new IllegalArgumentException("threads per host must be at least 1, not " + perHost);
    }
    Map<String, Integer> own = new HashMap<>();
    for (String part : hosts.split(",")) {
      if (part.isBlank()) {
        continue;
      }
      String[] pair = part.trim().split("=", -1);
      int threads;
      try {
        threads = pair.length == 2 ? Integer.parseInt(pair[1].trim()) : 0;
      } catch (NumberFormatException e) {
        threads = 0;
      }
      if (threads < 1 || pair[0].isBlank()) {
        throw new IllegalArgumentException(
            "'" + part.trim() + "' is not host=threads with at least 1 thread");
      }
      own.put(pair[0].trim().toLowerCase(Locale.ROOT), threads);
    }
    return host -> own.getOrDefault(host.toLowerCase(Locale.ROOT), perHost);
  }

  /**
   * Runs {@code task} on {@code host}'s lane when its turn comes, in turn with the other groups of
   * that host; {@code dropped} runs instead if this closes before then.
   *
   * @throws RejectedExecutionException once this is closed
   */
  public void execute(String host, String group, Runnable task, Runnable dropped) {
    if (closed) {
      throw new RejectedExecutionException("the lanes are closed");
    }
    lane(host).add(new Job(group, task, dropped));
  }

  /** The work waiting for a thread of {@code host}'s lane now. */
  public int waiting(String host) {
    Lane lane = lanes.get(host);
    return lane == null ? 0 : lane.waiting();
  }

  /** The lanes that exist now, by host ({@link #OTHER} among them once it is used). */
  List<String> hosts() {
    return List.copyOf(lanes.keySet());
  }

  /** Takes no more work and drops what waits (its {@code dropped} runs here); what runs goes on. */
  public void shutdown() {
    closed = true;
    List<Job> dropped = new ArrayList<>();
    lanes.values().forEach(lane -> lane.drain(dropped));
    dropped.forEach(job -> job.dropped().run());
    threads.shutdown();
  }

  /** Whether everything that ran has ended within {@code patience}. */
  public boolean awaitTermination(Duration patience) throws InterruptedException {
    return threads.awaitTermination(patience.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Drops what waits and interrupts what runs. */
  @Override
  public void close() {
    shutdown();
    threads.shutdownNow();
  }

  private Lane lane(String host) {
    Lane lane = lanes.get(host);
    if (lane != null) {
      return lane;
    }
    synchronized (lanes) {
      String name = lanes.containsKey(host) || lanes.size() < MAX_HOSTS ? host : OTHER;
      Lane made = lanes.get(name);
      if (made == null) {
        made = new Lane(limits.applyAsInt(name));
        lanes.put(name, made);
        opened.accept(name);
      }
      return made;
    }
  }

  private record Job(String group, Runnable task, Runnable dropped) {}

  /** One host's work: at most {@code limit} jobs at once, the groups taken in turn. */
  private final class Lane {
    private final int limit;
    private final int perGroup;
    private int running;
    private final Map<String, Integer> runningBy = new HashMap<>();

    /** Waiting jobs by group, the group whose turn is next first. */
    private final LinkedHashMap<String, ArrayDeque<Job>> waiting = new LinkedHashMap<>();

    Lane(int limit) {
      this.limit = limit;
      this.perGroup = limit >= 3 ? limit - 1 : limit;
    }

    void add(Job job) {
      synchronized (this) {
        waiting.computeIfAbsent(job.group(), g -> new ArrayDeque<>()).add(job);
      }
      if (closed) { // closed while it was being added: dropped like the others that waited
        List<Job> dropped = new ArrayList<>();
        drain(dropped);
        dropped.forEach(j -> j.dropped().run());
        return;
      }
      dispatch();
    }

    synchronized int waiting() {
      return waiting.values().stream().mapToInt(ArrayDeque::size).sum();
    }

    synchronized void drain(List<Job> into) {
      waiting.values().forEach(into::addAll);
      waiting.clear();
    }

    private void dispatch() {
      List<Job> next = new ArrayList<>();
      synchronized (this) {
        Job job;
        while (!closed && running < limit && (job = take()) != null) {
          running++;
          runningBy.merge(job.group(), 1, Integer::sum);
          next.add(job);
        }
      }
      for (Job job : next) {
        try {
          threads.execute(() -> run(job));
        } catch (RejectedExecutionException closing) {
          finished(job.group());
          job.dropped().run();
        }
      }
    }

    /** The first job of the first group below its share, that group then going last. */
    private Job take() {
      Iterator<Map.Entry<String, ArrayDeque<Job>>> groups = waiting.entrySet().iterator();
      while (groups.hasNext()) {
        Map.Entry<String, ArrayDeque<Job>> group = groups.next();
        if (runningBy.getOrDefault(group.getKey(), 0) < perGroup) {
          groups.remove();
          Job job = group.getValue().poll();
          if (!group.getValue().isEmpty()) {
            waiting.put(group.getKey(), group.getValue());
          }
          return job;
        }
      }
      return null;
    }

    private void run(Job job) {
      try {
        job.task().run();
      } finally {
        finished(job.group());
        dispatch();
      }
    }

    private synchronized void finished(String group) {
      running--;
      runningBy.computeIfPresent(group, (g, n) -> n == 1 ? null : n - 1);
    }
  }
}
